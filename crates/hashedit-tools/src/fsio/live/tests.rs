use super::*;

#[test]
fn registered_temp_files_are_removed_and_unregistered_ones_kept() {
    let dir = tempfile::tempdir().unwrap();
    let fd = std::fs::File::open(dir.path()).unwrap();
    std::fs::write(dir.path().join("a.tmp"), b"x").unwrap();
    std::fs::write(dir.path().join("b.tmp"), b"x").unwrap();
    let a = register(std::os::fd::AsFd::as_fd(&fd), OsStr::new("a.tmp")).unwrap();
    let b = register(std::os::fd::AsFd::as_fd(&fd), OsStr::new("b.tmp")).unwrap();
    unregister(b);
    assert!(remove_unfinished_temp_files() >= 1);
    assert!(!dir.path().join("a.tmp").exists());
    assert!(dir.path().join("b.tmp").exists());
    unregister(a);
}
