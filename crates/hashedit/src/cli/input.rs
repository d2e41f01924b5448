//! The input of `write` and `edit`: stdin or `--input`, bounded, UTF-8.

use std::io::{IsTerminal, Read};

use hashedit_tools::{ErrorKind, ToolError, ToolName, ToolResult};

/// Whether stdin holds input already, checked without blocking: a
/// non-empty file redirected in, or a pipe or socket with bytes waiting (a
/// byte is read to tell them from an end of input). A terminal, an empty
/// or closed pipe, `/dev/null`, or a pipe whose writer has sent nothing yet
/// count as no input.
pub(super) fn stdin_carries_input() -> bool {
    use rustix::event::{PollFd, PollFlags, Timespec, poll};
    use std::os::fd::AsFd;
    let stdin = std::io::stdin();
    if stdin.is_terminal() {
        return false;
    }
    let fd = stdin.as_fd();
    if let Ok(stat) = rustix::fs::fstat(fd)
        && rustix::fs::FileType::from_raw_mode(stat.st_mode) == rustix::fs::FileType::RegularFile
    {
        let at = rustix::fs::seek(fd, rustix::fs::SeekFrom::Current(0)).unwrap_or(0);
        return u64::try_from(stat.st_size).unwrap_or(0) > at;
    }
    let mut fds = [PollFd::new(&fd, PollFlags::IN)];
    let now = Timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    if !matches!(poll(&mut fds, Some(&now)), Ok(n) if n > 0)
        || !fds[0].revents().contains(PollFlags::IN)
    {
        return false;
    }
    let mut byte = [0u8; 1];
    matches!(stdin.lock().read(&mut byte), Ok(n) if n > 0)
}

/// Largest input the CLI reads from stdin or `--input` (bytes). `write`
/// refuses larger content anyway, and an edit document has no use for more
/// than the largest file `edit` loads. Reading stops one byte past the
/// limit, so an endless source (`/dev/zero`, a runaway pipe) costs bounded
/// memory and time instead of growing the process without end.
const MAX_INPUT_BYTES: u64 = hashedit_tools::EDIT_MAX_BYTES;

/// Reads `command`'s input from stdin (see [`read_bounded_text`]).
pub(super) fn read_stdin_text(command: ToolName) -> Result<ToolResult<String>, String> {
    let stdin = std::io::stdin();
    if stdin.is_terminal() {
        return Err(format!(
            "{command} reads its input from stdin; pipe it in (e.g. `hashedit {command} ... < file`)"
        ));
    }
    read_bounded_text(stdin.lock(), "stdin", command)
}

/// Reads at most [`MAX_INPUT_BYTES`] of UTF-8 text from `reader` (named
/// `source` in messages). More input is a tool error of kind `too_large`
/// (nothing was written); non-UTF-8 input is a tool error of kind
/// `not_utf8`; an unreadable source is a usage error.
pub(super) fn read_bounded_text(
    reader: impl Read,
    source: &str,
    command: ToolName,
) -> Result<ToolResult<String>, String> {
    let mut bytes = Vec::new();
    reader
        .take(MAX_INPUT_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| format!("cannot read {source}: {e}"))?;
    if bytes.len() as u64 > MAX_INPUT_BYTES {
        return Ok(Err(ToolError::new(
            ErrorKind::TooLarge,
            format!(
                "the input of {command} on {source} is more than {MAX_INPUT_BYTES} bytes, over the {MAX_INPUT_BYTES}-byte limit; nothing was written"
            ),
        )));
    }
    match String::from_utf8(bytes) {
        Ok(text) => Ok(Ok(text)),
        // A tool error, not a usage error: `--json` callers get the usual
        // error object, and the exit code says "refused" (1), not "misused".
        Err(error) => {
            let at = error.utf8_error().valid_up_to();
            let hint = match command {
                ToolName::Edit => raw_byte_in_header_hint(error.as_bytes(), at),
                _ => String::new(),
            };
            Ok(Err(ToolError::new(
                ErrorKind::NotUtf8,
                format!(
                    "the input of {command} on {source} is not UTF-8 text (first bad byte at offset \
                     {at}); nothing was written. Send it as UTF-8{hint}"
                ),
            )))
        }
    }
}

/// For an edit document whose first bad byte is on a `[…]` header line:
/// how a file name that is not UTF-8 is spelled there (FORMAT.md §8.5),
/// since the likely cause is a `\xNN` a shell's `printf` turned into the
/// raw byte.
fn raw_byte_in_header_hint(bytes: &[u8], at: usize) -> String {
    let line_start = bytes[..at]
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |i| i + 1);
    if bytes.get(line_start) != Some(&b'[') {
        return String::new();
    }
    let line = bytes[..line_start].iter().filter(|&&b| b == b'\n').count() + 1;
    format!(
        ". The byte is in the header on document line {line}: a file name that is not UTF-8 is written \
         as read and ls print it, quoted with each stray byte as \\xNN (\"caf\\xe9.txt\"); a shell's \
         printf turns \\xNN in its format into the raw byte, so pass the header as an argument \
         (printf '%s\\n' \"$header\")"
    )
}
