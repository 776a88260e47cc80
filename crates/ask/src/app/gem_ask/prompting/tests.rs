use super::*;
use clap::Parser;

fn args(argv: &[&str], given: &[&str]) -> Args {
    let mut a =
        Args::try_parse_from(std::iter::once("gem-ask").chain(argv.iter().copied())).unwrap();
    a.given = super::super::Given::of(given);
    a
}

fn tmp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("gemline-prompting-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn no_files() -> Places {
    Places {
        cwd: None,
        config_dir: None,
        home: None,
    }
}

const ROLES: &str = "[roles.tr]\nsystem = \"Translate into $lang.\"\nprompt = \"Translate: $input\"\n\
model = \"gemini-2.5-pro\"\ntemperature = 0.2\ntools = []\ndefaults = { lang = \"French\" }\n\
[roles.plain]\nsystem = \"Be terse.\"\n";

#[test]
fn a_role_brings_its_system_model_temperature_and_tools_and_flags_win() {
    let cfg = crate::config::parse(ROLES).unwrap();
    let mut a = args(&["--role", "tr", "good morning"], &["role"]);
    let p = resolve(&mut a, &cfg, &no_files()).unwrap();
    assert_eq!(p.system, "\nTranslate into French.\n");
    assert_eq!(a.prompt, ["Translate: good morning"]);
    assert_eq!(
        (a.model.as_str(), a.temperature),
        ("gemini-2.5-pro", Some(0.2))
    );
    assert!(a.no_tools && p.model_from_role && p.tools_from_role);
    assert_eq!(
        p.vars,
        [("lang".to_string(), "French".to_string(), "role defaults")]
    );

    let mut a = args(
        &[
            "--role",
            "tr",
            "-m",
            "flash",
            "--temperature",
            "1",
            "-p",
            "lang=German",
            "--tools",
            "read_file",
            "hi",
        ],
        &["role", "model", "temperature", "params", "tools"],
    );
    let p = resolve(&mut a, &cfg, &no_files()).unwrap();
    assert_eq!(p.system, "\nTranslate into German.\n");
    assert_eq!((a.model.as_str(), a.temperature), ("flash", Some(1.0)));
    assert_eq!(a.tools, ["read_file"]);
    assert!(!a.no_tools && !p.model_from_role && !p.tools_from_role);
}

#[test]
fn missing_roles_and_variables_are_named() {
    let cfg = crate::config::parse(ROLES).unwrap();
    let e = resolve(&mut args(&["--role", "poet", "x"], &[]), &cfg, &no_files()).unwrap_err();
    assert_eq!(
        e.to_string(),
        "unknown role \"poet\": the config's roles are plain, tr"
    );
    assert_eq!(e.code(), 2);
    let e = resolve(
        &mut args(&["--role", "x"], &[]),
        &Config::default(),
        &no_files(),
    )
    .unwrap_err();
    assert!(
        e.to_string()
            .contains("the config has no [roles.NAME] table"),
        "{e}"
    );
    let e = resolve(
        &mut args(&["-p", "a=1", "compare $a with $b"], &[]),
        &cfg,
        &no_files(),
    )
    .unwrap_err();
    assert_eq!(
        e.to_string(),
        "template variable $b has no value (in the prompt): give -p b=VALUE"
    );
    let cfg = crate::config::parse("[roles.r]\nsystem = \"for $who\"\n").unwrap();
    let e = resolve(&mut args(&["--role", "r", "x"], &[]), &cfg, &no_files()).unwrap_err();
    assert!(
        e.to_string()
            .starts_with("template variable $who has no value (in role r's system)"),
        "{e}"
    );
    assert!(e.to_string().contains("role's defaults"), "{e}");
}

#[test]
fn templates_fill_only_when_asked_and_keep_dollars_otherwise() {
    let cfg = Config::default();
    let mut a = args(&["what", "is", "$HOME?"], &[]);
    resolve(&mut a, &cfg, &no_files()).unwrap();
    assert_eq!(a.prompt, ["what", "is", "$HOME?"]);
    let mut a = args(
        &[
            "-p",
            "n=5",
            "--system",
            "Reply in ${n} words; costs $$3 or $9.",
            "top $n cars",
        ],
        &[],
    );
    let p = resolve(&mut a, &cfg, &no_files()).unwrap();
    assert_eq!(a.prompt, ["top 5 cars"]);
    assert_eq!(p.system, "\nReply in 5 words; costs $3 or $9.\n");
    let e = resolve(&mut args(&["-p", "n=1", "x ${n"], &[]), &cfg, &no_files()).unwrap_err();
    assert!(
        e.to_string().starts_with("the prompt: ${ must be followed"),
        "{e}"
    );
}

#[test]
fn context_files_come_global_first_then_outermost_to_nearest() {
    let root = tmp("ctx");
    let repo = root.join("repo");
    let sub = repo.join("a/b");
    std::fs::create_dir_all(&sub).unwrap();
    std::fs::create_dir_all(repo.join(".git")).unwrap();
    let conf = root.join("conf");
    std::fs::create_dir_all(&conf).unwrap();
    for (d, text) in [
        (&root, "above the repo"),
        (&repo, "repo"),
        (&repo.join("a"), "a"),
        (&sub, "b"),
        (&conf, "mine"),
    ] {
        std::fs::write(d.join(CONTEXT_FILE), text).unwrap();
    }
    let files = context_files(&sub, Some(&conf), None);
    assert_eq!(
        files,
        [
            conf.join(CONTEXT_FILE),
            repo.join(CONTEXT_FILE),
            repo.join("a").join(CONTEXT_FILE),
            sub.join(CONTEXT_FILE)
        ]
    );
    // Home bounds the walk where there is no repository.
    let files = context_files(&root.join("repo/a"), None, Some(&repo));
    assert_eq!(
        files,
        [repo.join(CONTEXT_FILE), repo.join("a").join(CONTEXT_FILE)]
    );

    let places = Places {
        cwd: Some(sub.clone()),
        config_dir: Some(conf.clone()),
        home: None,
    };
    let mut a = args(&["--system", "own", "q"], &[]);
    let p = resolve(&mut a, &Config::default(), &places).unwrap();
    let at = |s: &str| {
        p.system
            .find(s)
            .unwrap_or_else(|| panic!("{s} in {}", p.system))
    };
    assert!(at("own") < at("mine") && at("mine") < at("\nrepo") && at("\nrepo") < at("\nb"));
    let listing = p.render(None);
    let parsed: toml::Table = listing.parse().unwrap_or_else(|e| panic!("{e}\n{listing}"));
    let shown = parsed["prompt"]["context_files"].as_array().unwrap();
    assert_eq!(shown.len(), 4);
    assert_eq!(parsed["prompt"]["system"].as_str(), Some("own"));

    let mut a = args(&["--no-context-files", "q"], &[]);
    assert!(
        resolve(&mut a, &Config::default(), &places)
            .unwrap()
            .context
            .is_empty()
    );
}

#[test]
fn the_help_role_example_parses() {
    let c =
        crate::config::parse(&super::super::help_examples::help_example("A role, e.g.:")).unwrap();
    assert_eq!(c.roles["reviewer"].defaults["lang"], "Python");
}
