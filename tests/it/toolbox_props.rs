//! Property tests of the tool registry: whatever arguments the model
//! sends to whatever tool, dispatch never panics, always ends with one
//! `tool_result` and answers the model; and no path, however it climbs or
//! links, resolves outside the workspace.

use std::path::PathBuf;

use gemline::agent::toolbox::{ToolCall, ToolSetup, Workspace};
use gemline::events::Event;
use proptest::prelude::*;
use serde_json::{Value, json};

use crate::support::temp_dir;

/// A workspace `w` with a file, a subdirectory, a link to the outside and
/// a dangling link; a secret beside it.
fn scratch() -> PathBuf {
    // Both properties run at once, in threads of one process: set up once.
    static DIR: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    DIR.get_or_init(|| {
        let d = temp_dir("toolbox-props");
        let w = d.join("w");
        std::fs::create_dir_all(w.join("sub")).unwrap();
        std::fs::write(w.join("a.txt"), "alpha\nbeta\n").unwrap();
        std::fs::write(d.join("secret"), "TOPSECRET").unwrap();
        std::os::unix::fs::symlink(&d, w.join("up")).unwrap();
        std::os::unix::fs::symlink(d.join("nowhere"), w.join("dangling")).unwrap();
        d
    })
    .clone()
}

fn path_text() -> impl Strategy<Value = String> {
    let seg = prop_oneof![
        Just("..".to_string()),
        Just(".".to_string()),
        Just("sub".to_string()),
        Just("up".to_string()),
        Just("dangling".to_string()),
        Just("a.txt".to_string()),
        Just("secret".to_string()),
        Just("".to_string()),
        "[a-z]{1,3}",
    ];
    (any::<bool>(), prop::collection::vec(seg, 0..6))
        .prop_map(|(abs, segs)| format!("{}{}", if abs { "/" } else { "" }, segs.join("/")))
}

fn json_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        any::<f64>().prop_map(|f| json!(f)),
        path_text().prop_map(Value::from),
        "[(){}\\[\\]*+?.a-z\\\\]{0,12}".prop_map(Value::from),
    ];
    leaf.prop_recursive(3, 24, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::from),
            prop::collection::btree_map(
                prop_oneof![
                    Just("path".to_string()),
                    Just("pattern".to_string()),
                    Just("content".to_string()),
                    Just("offset".to_string()),
                    Just("limit".to_string()),
                    Just("title".to_string()),
                    Just("chartType".to_string()),
                    Just("directory".to_string()),
                    "[a-z]{1,6}",
                ],
                inner,
                0..4
            )
            .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

const NAMES: &[&str] = &[
    "render_visualization",
    "create_new_topic",
    "read_file",
    "list_directory",
    "search_files",
    "write_file",
    "run_shell_command",
    "no_such_tool",
];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn dispatch_always_answers(name in prop::sample::select(NAMES), args in json_value()) {
        let d = scratch();
        let setup = ToolSetup {
            only: NAMES[..7].iter().map(|s| s.to_string()).collect(),
            workdir: Some(d.join("w")),
            ..ToolSetup::default()
        };
        // No terminal: write_file and run_shell_command are refused, so
        // nothing is written or run whatever the arguments.
        let (mut tb, _) = setup.build_with(&Default::default()).unwrap();
        let mut events: Vec<Event> = Vec::new();
        let out = tb
            .dispatch(
                &ToolCall { name, id: Some("x"), args: &args, tool_id: "x" },
                &mut |e| {
                    events.push(e);
                    Ok(())
                },
            )
            .unwrap();
        prop_assert_eq!(events.first().map(Event::kind), Some("tool_use"));
        prop_assert_eq!(events.last().map(Event::kind), Some("tool_result"));
        let response = &out.part["functionResponse"]["response"];
        prop_assert!(response.get("output").is_some() || response["error"].is_string());
        prop_assert!(!response.to_string().contains("TOPSECRET"), "the secret leaked: {}", response);
    }

    #[test]
    fn no_path_resolves_outside(p in path_text()) {
        let d = scratch();
        let ws = Workspace::new(&d.join("w"), &[]).unwrap();
        let root = d.join("w").canonicalize().unwrap();
        if let Ok(real) = ws.resolve(&p) {
            prop_assert!(real.starts_with(&root), "{} -> {}", p, real.display());
        }
    }
}
