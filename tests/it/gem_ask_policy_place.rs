//! A rule's `host` and `pathGlob` (gemline's keys beyond gemini-cli's
//! form) through `gem-ask policy check`: an allow for `*.github.com`
//! covers no userinfo trick, look-alike or other host among the URLs; an
//! allow for `src/**` covers no `..`, no symlink out of the workspace and
//! no path outside it; a bad pattern is exit 2 naming the file, line and key.

use serde_json::Value;

use crate::support::FakeGemini;
use crate::support::ask::{ask_in as ask, run};
use crate::support::tools::Scene;

const RULES: &str = "[[rule]]\ntoolName = \"web_fetch\"\nhost = \"*.github.com\"\n\
                     decision = \"allow\"\npriority = 100\n\n\
                     [[rule]]\ntoolName = [\"read_file\", \"write_file\"]\npathGlob = [\"src/**/*.rs\", \"README.md\"]\n\
                     decision = \"allow\"\npriority = 100\n";

fn decision(scene: &Scene, server: &FakeGemini, policy: &str, tool: &str, args: &Value) -> Value {
    let all = [
        "policy",
        "check",
        "--policy",
        policy,
        tool,
        &args.to_string(),
    ];
    let (code, out, err) = run(&mut ask(scene, server, &all));
    assert_eq!(code, 0, "{err}");
    serde_json::from_str(&out).unwrap()
}

#[test]
fn host_and_path_rules_allow_only_what_they_name() {
    let scene = Scene::new("policy-place");
    let server = FakeGemini::start("policy-place", vec![]);
    let policy = scene.home.join("place.toml");
    std::fs::write(&policy, RULES).unwrap();
    let p = policy.to_str().unwrap();
    let fetch = |urls: &[&str]| {
        let d = decision(
            &scene,
            &server,
            p,
            "web_fetch",
            &serde_json::json!({"urls": urls}),
        );
        d["decision"].as_str().unwrap().to_string()
    };
    assert_eq!(fetch(&["https://api.github.com/repos/x"]), "allow");
    assert_eq!(
        fetch(&["https://API.GITHUB.COM/a", "https://raw.github.com/b"]),
        "allow"
    );
    for trick in [
        "https://api.github.com@attacker.example/collect?d=1",
        "https://api.github.com:x@attacker.example/",
        "https://api.gіthub.com/", // a Cyrillic і
        "https://github.com.attacker.example/",
        "https://evilgithub.com/",
        "https://attacker.example/#https://api.github.com/",
        "not a url",
    ] {
        assert_ne!(fetch(&[trick]), "allow", "{trick}");
    }
    // One URL elsewhere among several: not covered.
    assert_ne!(
        fetch(&["https://api.github.com/", "https://attacker.example/"]),
        "allow"
    );

    let work = &scene.work;
    std::fs::create_dir_all(work.join("src/deep")).unwrap();
    let outside = tempfile::tempdir().unwrap();
    std::os::unix::fs::symlink(outside.path(), work.join("src/out")).unwrap();
    let read = |path: &str| {
        let d = decision(
            &scene,
            &server,
            p,
            "read_file",
            &serde_json::json!({"path": path}),
        );
        d["decision"].as_str().unwrap().to_string()
    };
    assert_eq!(read("src/main.rs"), "allow");
    assert_eq!(read("src/deep/a.rs"), "allow");
    assert_eq!(read("README.md"), "allow");
    assert_eq!(read(work.join("src/x.rs").to_str().unwrap()), "allow");
    for trick in [
        "src/../../etc/passwd.rs",
        "src/../src/main.rs",
        "src/out/a.rs",
        "src/main.rs.bak",
        "/etc/src/a.rs",
        "docs/README.md",
    ] {
        assert_ne!(read(trick), "allow", "{trick}");
    }
    assert!(server.bodies().is_empty());
}

#[test]
fn a_bad_host_or_path_pattern_is_named_before_any_request() {
    let scene = Scene::new("policy-place-bad");
    let server = FakeGemini::start("policy-place-bad", vec![]);
    for (toml, says) in [
        (
            "[[rule]]\ntoolName = \"web_fetch\"\ndecision = \"allow\"\nhost = \"gіthub.com\"\n",
            ":4: host",
        ),
        (
            "[[rule]]\ntoolName = \"read_file\"\ndecision = \"allow\"\npathGlob = \"../x\"\n",
            ":4: pathGlob",
        ),
        (
            "[[rule]]\ntoolName = \"read_file\"\ndecision = \"allow\"\npathGlob = \"/etc/*\"\n",
            ":4: pathGlob",
        ),
    ] {
        let policy = scene.home.join("bad.toml");
        std::fs::write(&policy, toml).unwrap();
        let (code, _, err) = run(&mut ask(
            &scene,
            &server,
            &["--policy", policy.to_str().unwrap(), "hello"],
        ));
        assert_eq!(code, 2, "{err}");
        assert!(err.contains(&format!("bad.toml{says}")), "{err}");
    }
    assert!(server.bodies().is_empty());
}
