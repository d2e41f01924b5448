//! Machine facts printed with every figure: CPUs, kernel, memory and the
//! file system under test (fsync behaves differently on tmpfs and on a
//! disk file system, so it matters where trials run).

use std::path::Path;

/// The facts of this machine and of the file system holding `dir`.
#[derive(Debug, Clone)]
pub struct Facts {
    /// Logical CPUs available to this process.
    pub cpus: usize,
    /// CPU model name.
    pub cpu_model: String,
    /// Kernel release.
    pub kernel: String,
    /// Total memory in MiB.
    pub memory_mib: u64,
    /// File system type of `dir` (`ext4`, `tmpfs`, …).
    pub fs_type: String,
    /// The directory examined.
    pub dir: String,
}

impl Facts {
    /// Collects the facts; unknown values read `unknown`.
    pub fn collect(dir: &Path) -> Facts {
        let cpus = std::thread::available_parallelism().map_or(0, |n| n.get());
        let cpuinfo = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
        let cpu_model = cpuinfo
            .lines()
            .find_map(|l| l.strip_prefix("model name"))
            .and_then(|l| l.split_once(':'))
            .map_or("unknown".to_string(), |(_, v)| v.trim().to_string());
        let kernel = std::fs::read_to_string("/proc/sys/kernel/osrelease")
            .map_or("unknown".to_string(), |s| s.trim().to_string());
        let memory_mib = std::fs::read_to_string("/proc/meminfo")
            .ok()
            .and_then(|text| {
                text.lines()
                    .find_map(|l| l.strip_prefix("MemTotal:"))
                    .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
            })
            .map_or(0, |kb| kb / 1024);
        Facts {
            cpus,
            cpu_model,
            kernel,
            memory_mib,
            fs_type: fs_type(dir),
            dir: dir.display().to_string(),
        }
    }

    /// One line for reports.
    pub fn line(&self) -> String {
        format!(
            "{} CPUs ({}), Linux {}, {} MiB RAM; test directory {} on {}",
            self.cpus, self.cpu_model, self.kernel, self.memory_mib, self.dir, self.fs_type
        )
    }
}

/// The name of the file system type holding `dir`, from `statfs`.
pub fn fs_type(dir: &Path) -> String {
    let Ok(stat) = rustix::fs::statfs(dir) else {
        return "unknown".to_string();
    };
    #[allow(clippy::unnecessary_cast)]
    let magic = stat.f_type as i64 as u64 & 0xFFFF_FFFF;
    match magic {
        0xEF53 => "ext4 (ext2/3/4)".to_string(),
        0x0102_1994 => "tmpfs".to_string(),
        0x9123_683E => "btrfs".to_string(),
        0x5846_5342 => "xfs".to_string(),
        0x794C_7630 => "overlayfs".to_string(),
        0x6969 => "nfs".to_string(),
        0x2FC1_2FC1 => "zfs".to_string(),
        0x6573_5546 => "fuse".to_string(),
        other => format!("unknown (magic {other:#x})"),
    }
}
