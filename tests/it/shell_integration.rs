//! Shell integration, run as a user meets it: `--generate` prints what the
//! repository carries, the completion scripts load in bash, zsh and fish
//! and complete a flag, and `make install DESTDIR=...` puts programs, man
//! pages and completions where `man` and the shells find them.
//!
//! The shells, man and make come from `.ci/setup-shells.sh`. Without one of
//! them a test fails under CI=true and is skipped with a note elsewhere.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use crate::support::temp_dir;

const PROGRAMS: [&str; 4] = ["gem-ask", "viz-parse", "viz-render", "topic-tag"];

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Whether `tool` runs; a missing tool fails the test in CI.
fn have(tool: &str) -> bool {
    let ok = Command::new(tool)
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !ok {
        assert!(
            std::env::var_os("CI").is_none(),
            "{tool} is missing: .ci/setup-shells.sh installs it"
        );
        gemline::term::diag(format!(
            "SKIPPED: {tool} is not installed (.ci/setup-shells.sh installs it)"
        ));
    }
    ok
}

fn bin(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_BIN_EXE_gem-ask")).parent().unwrap();
    dir.join(name)
}

fn run(cmd: &mut Command) -> Output {
    let out = cmd.output().expect("the command starts");
    assert!(
        out.status.success(),
        "{cmd:?} failed ({}):\n{}\n{}",
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn generate_prints_the_files_the_repository_carries() {
    for p in PROGRAMS {
        let page = run(Command::new(bin(p)).args(["--generate", "man"])).stdout;
        assert_eq!(
            page,
            std::fs::read(root().join(format!("man/{p}.1"))).unwrap()
        );
        for (shell, file) in [
            ("bash", format!("completions/{p}.bash")),
            ("zsh", format!("completions/_{p}")),
            ("fish", format!("completions/{p}.fish")),
        ] {
            let script =
                run(Command::new(bin(p)).args(["--generate", "completions", shell])).stdout;
            assert_eq!(script, std::fs::read(root().join(&file)).unwrap(), "{file}");
        }
        let ps = stdout(&run(Command::new(bin(p)).args([
            "--generate",
            "completions",
            "powershell",
        ])));
        assert!(
            ps.contains("Register-ArgumentCompleter") && ps.contains(p),
            "{ps}"
        );
    }
}

#[test]
fn generate_rejects_what_it_cannot_make() {
    for args in [
        &["--generate", "completions", "tcsh"][..],
        &["--generate", "completions"],
        &["--generate", "man", "--width", "40"],
    ] {
        let out = Command::new(bin("viz-render")).args(args).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(out.stdout.is_empty());
    }
}

/// The completions bash, zsh and fish offer for `PROG --gen<TAB>` and
/// `PROG --generate <TAB>`, each shell loading the scripts from `dir`
/// (named as `make install` names them when `installed`).
fn complete_in(shell: &str, prog: &str, dir: &Path, installed: bool) -> String {
    let out = match shell {
        "bash" => {
            let file = if installed {
                dir.join(prog)
            } else {
                dir.join(format!("{prog}.bash"))
            };
            let script = format!(
                r#"set -e
source "{file}"
f=$(complete -p {prog} | sed -E 's/.*-F ([^ ]+).*/\1/')
for line in "{prog} --gen" "{prog} --generate "; do
    read -ra COMP_WORDS <<<"$line"
    [[ $line == *' ' ]] && COMP_WORDS+=("")
    COMP_CWORD=$(( ${{#COMP_WORDS[@]}} - 1 ))
    COMP_LINE=$line; COMP_POINT=${{#line}}
    prev=${{COMP_WORDS[COMP_CWORD-1]}}
    "$f" {prog} "${{COMP_WORDS[COMP_CWORD]}}" "$prev"
    printf '%s\n' "${{COMPREPLY[@]}}"
done"#,
                file = file.display()
            );
            Command::new("bash")
                .args(["--norc", "--noprofile", "-c", &script])
                .output()
        }
        "zsh" => {
            // compinit finds the script through fpath by its #compdef line,
            // as a user's shell does; zsh's completion needs a terminal to
            // run, so loading is what is checked here.
            let script = format!(
                r#"fpath=("{dir}" $fpath)
autoload -Uz compinit && compinit -u -d "{dump}"
print -r -- "$_comps[{prog}]"
autoload -Uz +X _{prog} && print -r -- loaded"#,
                dir = dir.display(),
                // Never beside the scripts: that may be the source tree.
                dump = temp_dir(&format!("zcompdump-{prog}"))
                    .join("zcompdump")
                    .display()
            );
            Command::new("zsh").args(["-f", "-c", &script]).output()
        }
        "fish" => {
            // Installed: found on the vendor path of XDG_DATA_DIRS; else sourced.
            let load = if installed {
                String::new()
            } else {
                format!("source '{}'\n", dir.join(format!("{prog}.fish")).display())
            };
            let script =
                format!("{load}complete -C '{prog} --gen'\ncomplete -C '{prog} --generate '");
            let mut cmd = Command::new("fish");
            if installed {
                // fish completes a command it can find, from the data dirs.
                let share = dir.parent().unwrap().parent().unwrap();
                let bin = share.parent().unwrap().join("bin");
                let path = std::env::var_os("PATH").unwrap_or_default();
                let mut dirs = vec![bin];
                dirs.extend(std::env::split_paths(&path));
                cmd.env("XDG_DATA_DIRS", share)
                    .env("PATH", std::env::join_paths(dirs).unwrap());
            }
            cmd.env("XDG_CONFIG_HOME", dir.join(".fish-config"))
                .env("XDG_DATA_HOME", dir.join(".fish-data"))
                .args(["-c", &script])
                .output()
        }
        _ => unreachable!(),
    }
    .unwrap_or_else(|e| panic!("{shell}: {e}"));
    assert!(
        out.status.success() && out.stderr.is_empty(),
        "{shell} loading {prog}'s completions: {}\n{}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    stdout(&out)
}

#[test]
fn completions_load_and_complete_in_bash_zsh_and_fish() {
    let dir = root().join("completions");
    for shell in ["bash", "zsh", "fish"] {
        if !have(shell) {
            continue;
        }
        for p in PROGRAMS {
            let got = complete_in(shell, p, &dir, false);
            match shell {
                "zsh" => assert_eq!(got, format!("_{p}\nloaded\n"), "zsh {p}"),
                _ => {
                    assert!(got.contains("--generate"), "{shell} {p}: {got}");
                    for word in ["completions", "man"] {
                        assert!(
                            got.lines().any(|l| l.starts_with(word)),
                            "{shell} {p} lacks {word}: {got}"
                        );
                    }
                }
            }
        }
    }
}

#[test]
fn make_install_puts_everything_where_man_and_the_shells_find_it() {
    if !have("make") || !have("man") {
        return;
    }
    let dest = temp_dir("destdir");
    let build_dir = bin("gem-ask").parent().unwrap().to_path_buf();
    let make = |target: &str| {
        run(Command::new("make")
            .current_dir(root())
            .arg(target)
            .arg(format!("DESTDIR={}", dest.display()))
            .arg("PREFIX=/usr")
            .arg(format!("BUILD_DIR={}", build_dir.display())))
    };
    make("install");
    let usr = dest.join("usr");

    for p in PROGRAMS {
        let version = stdout(&run(Command::new(usr.join("bin").join(p)).arg("--version")));
        assert_eq!(version, format!("{p} {}\n", env!("CARGO_PKG_VERSION")));
    }
    // The installed programs work together.
    let events = run(Command::new(usr.join("bin/viz-parse"))
        .args(["--chart", "bar"])
        .arg(root().join("testdata/bmw.csv")))
    .stdout;
    let mut render = Command::new(usr.join("bin/viz-render"));
    render
        .args(["--width", "60", "--ascii", "--color", "never"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped());
    let mut child = render.spawn().unwrap();
    std::io::Write::write_all(&mut child.stdin.take().unwrap(), &events).unwrap();
    let drawn = child.wait_with_output().unwrap();
    assert!(drawn.status.success() && drawn.stdout.contains(&b'#'));

    let mandir = usr.join("share/man");
    let man = |args: &[&str]| {
        let out = run(Command::new("man")
            .env("MANWIDTH", "80")
            .env("MANPAGER", "cat")
            .env("LC_ALL", "C.UTF-8")
            .args(args));
        assert!(
            out.stderr.is_empty(),
            "man {args:?} warned: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        stdout(&out)
    };
    for p in PROGRAMS {
        let file = mandir.join(format!("man1/{p}.1"));
        let page = man(&["-l", file.to_str().unwrap()]);
        assert!(page.contains("NAME") && page.contains("Exit"), "{page}");
        // Found by name on a man path, as `man gem-ask` finds it.
        let by_name = man(&["-M", mandir.to_str().unwrap(), p]);
        assert_eq!(by_name, page);
    }
    let events_page = man(&["-M", mandir.to_str().unwrap(), "5", "gemline-events"]);
    for needle in [
        "GEMLINE-EVENTS(5)",
        "Rules every program keeps",
        "topic_summary",
        "┌",
    ] {
        assert!(events_page.contains(needle), "{needle}:\n{events_page}");
    }

    for shell in ["bash", "zsh", "fish"] {
        if !have(shell) {
            continue;
        }
        let dir = match shell {
            "bash" => usr.join("share/bash-completion/completions"),
            "zsh" => usr.join("share/zsh/site-functions"),
            _ => usr.join("share/fish/vendor_completions.d"),
        };
        for p in PROGRAMS {
            let got = complete_in(shell, p, &dir, true);
            assert!(
                got.contains("--generate") || got == format!("_{p}\nloaded\n"),
                "{shell} {p}: {got}"
            );
        }
    }

    make("uninstall");
    let left: Vec<_> = walk(&dest)
        .into_iter()
        .filter(|p| p.is_file() && !p.to_string_lossy().contains("/."))
        .collect();
    assert!(left.is_empty(), "uninstall left {left:?}");
    let _ = std::fs::remove_dir_all(&dest);
}

fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let p = e.path();
        if p.is_dir() {
            out.extend(walk(&p));
        }
        out.push(p);
    }
    out
}
