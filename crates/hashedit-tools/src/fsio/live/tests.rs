use super::*;

#[test]
fn closing_removes_the_registered_temp_files_only() {
    let dir = tempfile::tempdir().unwrap();
    let fd = std::fs::File::open(dir.path()).unwrap();
    std::fs::write(dir.path().join("a.tmp"), b"x").unwrap();
    std::fs::write(dir.path().join("b.tmp"), b"x").unwrap();
    let dup = || rustix::io::fcntl_dupfd_cloexec(&fd, 0).unwrap();
    let mut registry = Registry {
        live: vec![Live {
            id: 1,
            dir: dup(),
            name: "a.tmp".into(),
        }],
        closing: false,
    };
    assert_eq!(close(&mut registry), 1);
    assert!(registry.closing && registry.live.is_empty());
    assert!(!dir.path().join("a.tmp").exists());
    assert!(dir.path().join("b.tmp").exists());
}
