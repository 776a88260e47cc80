//! Reading a built-in tool's arguments, the same way in every file tool:
//! a string argument, a required one, and the errors that say which.

use serde_json::Value;

use crate::agent::toolbox::Failed;

pub fn str_arg<'a>(args: &'a Value, key: &str) -> Option<&'a str> {
    args.get(key).and_then(Value::as_str)
}

pub fn bad_args(message: String) -> Failed {
    Failed::new("invalid_arguments", message)
}

pub fn io_failed(path: &str, e: std::io::Error) -> Failed {
    Failed::new("tool_failed", format!("{path}: {e}"))
}

pub fn required<'a>(tool: &str, args: &'a Value, key: &str) -> Result<&'a str, Failed> {
    str_arg(args, key).ok_or_else(|| bad_args(format!("{tool}: {key} is required (a string)")))
}
