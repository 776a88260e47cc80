//! `-h` a person can read: each program's flags under headings by concern,
//! one line a flag, every flag there; `--help` keeps the long form (the
//! whole text of each flag, its default and possible values).

use std::process::Command;

const PROGRAMS: [(&str, usize); 4] = [
    ("gem-ask", 100),
    ("viz-parse", 100),
    ("viz-render", 80),
    ("topic-tag", 50),
];

fn help(program: &str, flag: &str) -> String {
    let dir = std::path::Path::new(env!("CARGO_BIN_EXE_gem-ask"))
        .parent()
        .unwrap();
    let out = Command::new(dir.join(program))
        .arg(flag)
        .env("COLUMNS", "100")
        .output()
        .unwrap();
    assert!(out.status.success(), "{program} {flag}");
    String::from_utf8(out.stdout).unwrap()
}

/// The long flags of `program`'s command, as its binary parses them.
fn long_flags(program: &str) -> Vec<String> {
    let cmd = gemline::app::docs::programs()
        .into_iter()
        .find(|c| c.get_name() == program)
        .unwrap();
    cmd.get_arguments()
        .filter(|a| !a.is_hide_set())
        .filter_map(|a| a.get_long().map(|l| format!("--{l}")))
        .collect()
}

/// Lines of `text` that start a flag (`  -x, --long` or `      --long`).
fn flag_lines(text: &str) -> Vec<&str> {
    text.lines()
        .filter(|l| l.starts_with("  -") || l.starts_with("      --"))
        .collect()
}

#[test]
fn short_help_is_short_and_names_every_flag_on_one_line() {
    for (program, most) in PROGRAMS {
        let short = help(program, "-h");
        let lines = short.lines().count();
        assert!(lines < most, "{program} -h is {lines} lines:\n{short}");
        let flags = flag_lines(&short);
        for flag in long_flags(program) {
            let with: Vec<_> = flags
                .iter()
                .filter(|l| {
                    let spec = l.trim_start().split("  ").next().unwrap_or("");
                    spec.split([' ', ',', '[', '=']).any(|w| w == flag)
                })
                .collect();
            assert_eq!(
                with.len(),
                1,
                "{program} -h: {flag} not on one line of its own:\n{short}"
            );
        }
        // One line a flag: the option sections hold nothing but flag lines,
        // headings and blank lines (no wrapped help).
        let options = short.split("\n\n").filter(|s| {
            s.lines()
                .nth(1)
                .is_some_and(|l| l.starts_with("  -") || l.starts_with("      --"))
        });
        for section in options {
            for line in section.lines().skip(1) {
                assert!(
                    line.starts_with("  -") || line.starts_with("      --"),
                    "{program} -h wraps a flag's help:\n{line}\n\n{short}"
                );
            }
        }
    }
}

#[test]
fn help_groups_flags_under_headings_by_concern() {
    let heads = |text: &str| -> Vec<String> {
        text.lines()
            .filter(|l| !l.starts_with(' ') && l.ends_with(':'))
            .map(String::from)
            .collect()
    };
    let wanted: [(&str, &[&str]); 3] = [
        (
            "gem-ask",
            &[
                "What to ask:",
                "Conversation:",
                "Tools:",
                "Output:",
                "Connection:",
            ],
        ),
        (
            "viz-parse",
            &[
                "Input:",
                "The chart:",
                "Transforms:",
                "Live charts (--follow):",
            ],
        ),
        (
            "viz-render",
            &["Output format:", "Terminal:", "What is drawn:"],
        ),
    ];
    for (program, headings) in wanted {
        let found = heads(&help(program, "-h"));
        for h in headings {
            assert!(
                found.iter().any(|a| a == h),
                "{program} -h has no {h}: {found:?}"
            );
        }
    }
}

#[test]
fn long_help_keeps_each_flags_whole_text_default_and_values() {
    let long = help("gem-ask", "--help");
    for whole in [
        "A model the API no longer serves is exit 9",
        "[default: auto]",
        "- jsonl: JSON lines",
        "Exit codes:",
    ] {
        assert!(long.contains(whole), "gem-ask --help lacks {whole:?}");
    }
    let short = help("gem-ask", "-h");
    assert!(!short.contains("A model the API no longer serves"));
    let parse = help("viz-parse", "--help");
    assert!(
        parse.contains("Possible values:\n          - bar"),
        "{parse}"
    );
    assert!(
        parse
            .lines()
            .any(|l| l.trim_start().starts_with("- hist:") && l.contains("A histogram of -y")),
        "{parse}"
    );
}
