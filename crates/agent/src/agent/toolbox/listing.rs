//! The tool list a person reads (`gem-ask --list-tools`, `/tools`): every
//! tool with its source, its consent level as it stands (config applied,
//! standing permissions noted) and whether the model sees it, then each MCP
//! server's status.

use super::{Decision, Level, Toolbox};
use crate::render::table;

/// One tool, as listed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ToolInfo {
    pub name: String,
    /// `built-in` or `mcp:SERVER`.
    pub source: String,
    pub level: Level,
    /// `trusted` or `allowed` when no question will be asked.
    pub standing: Option<&'static str>,
    /// Declared to the model in this session.
    pub declared: bool,
}

/// One MCP server, as listed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ServerInfo {
    pub name: String,
    /// `running, N tools` or `failed: WHY`.
    pub status: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ToolList {
    pub tools: Vec<ToolInfo>,
    pub servers: Vec<ServerInfo>,
    /// Why some tools cannot be declared in this run (one line each).
    pub notes: Vec<String>,
}

pub(super) fn list(tb: &Toolbox) -> ToolList {
    let tools = tb
        .registry
        .iter()
        .map(|t| ToolInfo {
            name: t.name.clone(),
            source: t.source.to_string(),
            level: tb.consent.level(t),
            standing: tb.consent.standing(t).map(Decision::as_str),
            declared: tb.declared.contains(&t.name),
        })
        .collect();
    let servers = tb
        .servers
        .iter()
        .map(|(name, status)| ServerInfo {
            name: name.clone(),
            status: status.clone(),
        })
        .collect();
    let mut notes: Vec<String> = Vec::new();
    let withheld: Vec<&str> = tb.withheld.iter().map(|(n, _)| n.as_str()).collect();
    if let Some((_, why)) = tb.withheld.first() {
        notes.push(format!("{}: not declared: {why}", withheld.join(", ")));
    }
    ToolList {
        tools,
        servers,
        notes,
    }
}

/// The list as aligned plain-text columns (control characters from a
/// server's names or messages escaped).
pub fn format_tool_list(list: &ToolList) -> String {
    let mut rows = vec![vec![
        "TOOL".to_string(),
        "SOURCE".into(),
        "CONSENT".into(),
        "DECLARED".into(),
    ]];
    rows.extend(list.tools.iter().map(|t| {
        let level = match t.standing {
            Some(s) => format!("{} ({s})", t.level),
            None => t.level.to_string(),
        };
        let declared = if t.declared { "yes" } else { "no" };
        vec![t.name.clone(), t.source.clone(), level, declared.into()]
    }));
    let mut out = table::columns(&rows);
    if !list.servers.is_empty() {
        let mut rows = vec![vec!["MCP SERVER".to_string(), "STATUS".into()]];
        rows.extend(
            list.servers
                .iter()
                .map(|s| vec![s.name.clone(), s.status.clone()]),
        );
        out.push('\n');
        out.push_str(&table::columns(&rows));
    }
    for n in &list.notes {
        out.push('\n');
        out.push_str(n);
        out.push('\n');
    }
    crate::render::text::clean_text(&out, false)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_every_builtin_with_level_and_declaration() {
        let tb = Toolbox::charts_only(&["render_visualization"]);
        let text = format_tool_list(&tb.list());
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(
            lines[0],
            "TOOL                  SOURCE    CONSENT   DECLARED"
        );
        assert_eq!(lines[1], "render_visualization  built-in  auto      yes");
        assert_eq!(lines[2], "create_new_topic      built-in  auto      no");
        assert!(
            text.contains("\nrun_shell_command     built-in  standard  no\n"),
            "{text}"
        );
        assert!(
            text.contains("\nwrite_file            built-in  standard  no\n"),
            "{text}"
        );
    }
}
