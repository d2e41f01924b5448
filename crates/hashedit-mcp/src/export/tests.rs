use super::*;

fn names(definitions: &[Value], pointer: &str) -> Vec<String> {
    definitions
        .iter()
        .map(|d| d.pointer(pointer).unwrap().as_str().unwrap().to_string())
        .collect()
}

#[test]
fn every_format_lists_the_six_tools_in_order() {
    let six = ["read_file", "grep", "glob", "list_dir", "write", "edit"];
    assert_eq!(
        names(
            &export_tool_definitions(ToolFormat::OpenAi, false),
            "/function/name"
        ),
        six
    );
    assert_eq!(
        names(
            &export_tool_definitions(ToolFormat::Anthropic, false),
            "/name"
        ),
        six
    );
    assert_eq!(
        names(&export_tool_definitions(ToolFormat::Mcp, false), "/name"),
        six
    );
    assert_eq!(
        names(&export_tool_definitions(ToolFormat::Mcp, true), "/name"),
        ["read_file", "grep", "glob", "list_dir"]
    );
}

#[test]
fn the_schemas_and_descriptions_are_the_servers() {
    let openai = export_tool_definitions(ToolFormat::OpenAi, false);
    let anthropic = export_tool_definitions(ToolFormat::Anthropic, false);
    let mcp = export_tool_definitions(ToolFormat::Mcp, false);
    for (i, tool) in ToolName::ALL.into_iter().enumerate() {
        let schema = Value::Object(tool.input_schema());
        assert_eq!(openai[i]["type"], "function");
        assert_eq!(openai[i]["function"]["parameters"], schema);
        assert_eq!(openai[i]["function"]["description"], tool.description());
        assert_eq!(anthropic[i]["input_schema"], schema);
        assert_eq!(anthropic[i]["description"], tool.description());
        assert_eq!(mcp[i]["inputSchema"], schema);
        assert_eq!(mcp[i]["title"], tool.title());
        assert_eq!(mcp[i]["annotations"]["readOnlyHint"], !tool.writes());
    }
    assert_eq!(
        openai[5]["function"]["parameters"]["required"],
        json!(["input"])
    );
}

#[test]
fn format_names_round_trip_and_unknown_ones_are_refused() {
    for format in ToolFormat::ALL {
        assert_eq!(format.name().parse::<ToolFormat>(), Ok(format));
    }
    assert_eq!(
        "gemini".parse::<ToolFormat>(),
        Err("unknown tool definition format 'gemini': use openai, anthropic or mcp".to_string())
    );
}
