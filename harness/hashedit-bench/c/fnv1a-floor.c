/* The floor of a rho-scheme read (docs/PERFORMANCE.md): 32-bit FNV-1a
 * (FORMAT.md §3.1 step 3) over every byte of a file mapped into memory, with
 * no trimming, no line splitting and no other work. A rho tag cannot be
 * computed faster than this chain of dependent multiplications.
 *
 * Build: cc -O3 -o fnv1a-floor fnv1a-floor.c     Run: fnv1a-floor FILE
 * Prints the low 16 bits as 4 hex digits (so the loop cannot be dropped)
 * and, for files with no trailing whitespace, that is the file's rho tag. */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: fnv1a-floor FILE\n");
        return 2;
    }
    int fd = open(argv[1], O_RDONLY);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0) {
        perror(argv[1]);
        return 1;
    }
    uint32_t h = 0x811C9DC5u;
    if (st.st_size > 0) {
        const unsigned char *p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
        if (p == MAP_FAILED) {
            perror("mmap");
            return 1;
        }
        for (off_t i = 0; i < st.st_size; i++) {
            h ^= p[i];
            h *= 0x01000193u;
        }
    }
    printf("%04X\n", (unsigned)(h & 0xFFFFu));
    return 0;
}
