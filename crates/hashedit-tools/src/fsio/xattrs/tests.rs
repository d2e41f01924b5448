use super::*;

/// Two temp files on a file system that takes `user.*` attributes, or
/// `None` after saying what `test` could not check (tmpfs before Linux 6.6
/// refuses them).
fn pair(test: &str) -> Option<(tempfile::TempDir, File, File)> {
    let dir = tempfile::tempdir().unwrap();
    let a = File::create(dir.path().join("a")).unwrap();
    let b = File::create(dir.path().join("b")).unwrap();
    if let Err(e) = a.set_xattr("user.probe", b"1") {
        hashedit_skip::skip(
            test,
            "copying user.* attributes",
            &format!("no user.* attributes here ({e})"),
        );
        return None;
    }
    Some((dir, a, b))
}

#[test]
fn every_attribute_is_copied() {
    let Some((_dir, a, b)) = pair("every_attribute_is_copied") else {
        return;
    };
    a.set_xattr("user.comment", b"keep me").unwrap();
    assert_eq!(copy_xattrs(&a, &b, "a"), None);
    assert_eq!(
        b.get_xattr("user.comment").unwrap(),
        Some(b"keep me".to_vec())
    );
    assert_eq!(b.get_xattr("user.probe").unwrap(), Some(b"1".to_vec()));
}

#[test]
fn an_attribute_that_cannot_be_copied_is_named_in_a_warning() {
    use crate::fsio::fault::{self, Point};
    let Some((_dir, a, b)) = pair("an_attribute_that_cannot_be_copied_is_named_in_a_warning")
    else {
        return;
    };
    a.set_xattr("user.keep", b"1").unwrap();
    fault::set(|point, name| {
        (point == Point::SetXattr && name == "user.keep").then(fault::injected)
    });
    let warning = copy_xattrs(&a, &b, "notes.txt").map(|w| w.to_string());
    fault::clear();
    assert_eq!(
        warning.as_deref(),
        Some(
            "warning: notes.txt: the new content was written, but an extended attribute could not be \
             copied to it (user.keep); check them (getfattr -d, getfacl) and set them again if they matter"
        )
    );
    assert_eq!(b.get_xattr("user.probe").unwrap(), Some(b"1".to_vec()));
    assert_eq!(b.get_xattr("user.keep").unwrap(), None);
}
