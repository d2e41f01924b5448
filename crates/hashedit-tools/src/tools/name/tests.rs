use super::ToolName;

#[test]
fn wire_names_round_trip_and_only_write_and_edit_write() {
    let names: Vec<&str> = ToolName::ALL.iter().map(|t| t.as_str()).collect();
    assert_eq!(
        names,
        ["read_file", "grep", "glob", "list_dir", "write", "edit"]
    );
    for tool in ToolName::ALL {
        assert_eq!(ToolName::parse(tool.as_str()), Some(tool));
        assert_eq!(tool.to_string(), tool.as_str());
    }
    assert_eq!(ToolName::parse("Read_File"), None);
    assert_eq!(ToolName::parse("read"), None);
    let writers: Vec<ToolName> = ToolName::ALL.into_iter().filter(|t| t.writes()).collect();
    assert_eq!(writers, [ToolName::Write, ToolName::Edit]);
}
