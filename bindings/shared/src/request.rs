//! One tool call as a binding builds it: the tool's own argument struct,
//! filled from the method's positional arguments and its options.
//!
//! A binding method names the tool and its positional arguments
//! (`grep(pattern, path)`); everything else arrives as options whose names
//! are the fields of the tool's argument struct (`GrepArgs::max_per_file`
//! is `max_per_file=` in Python and `maxPerFile` in Node). The options are
//! checked against the schema derived from that struct, the one the MCP
//! server publishes and enforces, so a binding can neither miss a field
//! the tool gained nor accept one it does not have.

use hashedit_tools::{EditMode, ErrorKind, ToolError, ToolName, ToolResult};
use serde_json::{Map, Value};

/// How a binding spells option names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Case {
    /// `max_per_file`, as the argument structs and Python.
    Snake,
    /// `maxPerFile`, as JavaScript.
    Camel,
}

impl Case {
    /// `name` in snake case: `maxPerFile` → `max_per_file` for
    /// [`Case::Camel`], unchanged for [`Case::Snake`].
    fn to_snake(self, name: &str) -> String {
        match self {
            Case::Snake => name.to_string(),
            Case::Camel => {
                let mut snake = String::with_capacity(name.len() + 4);
                for c in name.chars() {
                    if c.is_ascii_uppercase() {
                        snake.push('_');
                        snake.push(c.to_ascii_lowercase());
                    } else {
                        snake.push(c);
                    }
                }
                snake
            }
        }
    }

    /// The option that asks `edit` for a dry run.
    fn dry_run(self) -> &'static str {
        match self {
            Case::Snake => "dry_run",
            Case::Camel => "dryRun",
        }
    }
}

/// A tool call ready to run with [`crate::Embedded::run`]: the tool, its
/// arguments as the JSON object its argument struct reads, and for `edit`
/// whether it is a dry run.
#[derive(Debug, Clone, PartialEq)]
pub struct Request {
    pub(crate) tool: ToolName,
    pub(crate) arguments: Map<String, Value>,
    pub(crate) mode: EditMode,
}

impl Request {
    /// A call of `tool` with no arguments yet.
    pub fn new(tool: ToolName) -> Request {
        Request {
            tool,
            arguments: Map::new(),
            mode: EditMode::Apply,
        }
    }

    /// A call of the tool whose wire name is `name` (`read_file`, `grep`,
    /// …) with `arguments`, a JSON object (or null for none) of the shape
    /// [`crate::tool_definitions`] describes: a model's function call.
    ///
    /// Errors: `invalid_arguments` for an unknown tool or arguments that
    /// are not an object.
    pub fn from_call(name: &str, arguments: Value) -> ToolResult<Request> {
        let Some(tool) = ToolName::parse(name) else {
            let names: Vec<&str> = ToolName::ALL.iter().map(|t| t.as_str()).collect();
            let (last, rest) = names.split_last().unwrap_or((&"", &[]));
            return Err(invalid(format!(
                "unknown tool '{name}': the tools are {} and {last}",
                rest.join(", ")
            )));
        };
        let arguments = match arguments {
            Value::Null => Map::new(),
            Value::Object(map) => map,
            other => {
                return Err(invalid(format!(
                    "the arguments of {name} must be an object, got {other}"
                )));
            }
        };
        Ok(Request {
            arguments,
            ..Request::new(tool)
        })
    }

    /// Sets the argument `name` (a field of the tool's argument struct) to
    /// `value`: a method's positional argument. `None` leaves it absent.
    pub fn arg(mut self, name: &str, value: impl Into<Value>) -> Request {
        let value = value.into();
        if !value.is_null() {
            self.arguments.insert(name.to_string(), value);
        }
        self
    }

    /// Adds a method's options, an object (or null for none) whose names
    /// are the argument struct's fields spelled in `case`; for `edit`,
    /// `dry_run` (`dryRun`) asks for a dry run. A null value counts as
    /// absent, as over MCP.
    ///
    /// Errors: `invalid_arguments` when `options` is not an object, when an
    /// option repeats a positional argument, or when `dry_run` is not a
    /// boolean. Unknown names and ill-typed values are refused when the
    /// request runs, by the tool's schema.
    pub fn options(mut self, options: Value, case: Case) -> ToolResult<Request> {
        let options = match options {
            Value::Null => return Ok(self),
            Value::Object(map) => map,
            other => {
                return Err(invalid(format!(
                    "the options of {} must be an object, got {other}",
                    self.tool.as_str()
                )));
            }
        };
        for (key, value) in options {
            if self.tool == ToolName::Edit && key == case.dry_run() {
                self.mode = match value {
                    Value::Bool(true) => EditMode::DryRun,
                    Value::Bool(false) | Value::Null => EditMode::Apply,
                    other => {
                        return Err(invalid(format!("{key} must be true or false, got {other}")));
                    }
                };
                continue;
            }
            let name = case.to_snake(&key);
            if self.arguments.contains_key(&name) {
                return Err(invalid(format!(
                    "{key} is given twice: as an argument of {} and as an option",
                    self.tool.as_str()
                )));
            }
            self.arguments.insert(name, value);
        }
        Ok(self)
    }
}

pub(crate) fn invalid(message: String) -> ToolError {
    ToolError::new(ErrorKind::InvalidArguments, message)
}
