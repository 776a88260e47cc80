//! viz-render end to end, at the edges: the width, Unicode or ASCII and
//! colour from flags, environment, config and terminal; control characters
//! made harmless; closed pipes and stderr; files, directories and exit codes;
//! and viz-parse piped into it by a real shell.

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Command, Stdio};

use crate::support::temp_dir;

use super::viz_render::{bar, ok, render, testdata};

#[test]
fn width_comes_from_flag_then_columns_then_80() {
    let long = bar(&[("a", 1.0)]);
    let widest = |o: &str| o.lines().map(|l| l.chars().count()).max().unwrap();
    assert_eq!(widest(&render(&[], &[], &long).stdout), 80);
    assert_eq!(widest(&render(&[], &[("COLUMNS", "50")], &long).stdout), 50);
    assert_eq!(
        widest(&render(&["--width", "30"], &[("COLUMNS", "50")], &long).stdout),
        30
    );
    let o = render(&["--width", "0"], &[], &long);
    assert_eq!(o.code, 2);
}

#[test]
fn unicode_or_ascii_from_flags_locale_and_term() {
    let chart = testdata("bmw.jsonl");
    let is_unicode = |args: &[&str], env: &[(&str, &str)]| {
        let o = render(args, env, &chart);
        assert_eq!(o.code, 0);
        !o.stdout.is_ascii()
    };
    assert!(is_unicode(&[], &[]));
    assert!(!is_unicode(&["--ascii"], &[]));
    assert!(!is_unicode(&[], &[("LC_ALL", "C")]));
    assert!(!is_unicode(
        &[],
        &[("LC_CTYPE", "POSIX"), ("LANG", "en_US.UTF-8")]
    ));
    assert!(!is_unicode(&[], &[("TERM", "dumb")]));
    assert!(is_unicode(
        &["--unicode"],
        &[("LC_ALL", "C"), ("TERM", "dumb")]
    ));
    assert_eq!(render(&["--ascii", "--unicode"], &[], &chart).code, 2);
}

#[test]
fn colour_only_when_asked_and_allowed() {
    let chart = testdata("multi.jsonl");
    let escapes =
        |args: &[&str], env: &[(&str, &str)]| render(args, env, &chart).stdout.contains('\x1b');
    // Not a terminal: auto means no colour.
    assert!(!escapes(&[], &[]));
    assert!(!escapes(&["--color", "never"], &[]));
    assert!(escapes(&["--color", "always"], &[]));
    assert!(escapes(&["--color", "always"], &[("NO_COLOR", "1")]));
    assert!(!escapes(
        &["--color", "auto"],
        &[("NO_COLOR", "1"), ("TERM", "xterm")]
    ));
}

#[test]
fn control_characters_never_reach_the_terminal() {
    let evil = serde_json::json!({"type":"visualization","chartType":"bar","title":"T\u{1b}]0;pwned\u{7}itle",
        "series":[{"name":"s","points":[{"label":"a\u{1b}[2Jb\u{9b}c\u{202e}d","value":1}]}],
        "meta":{"truncated":false,"originalPointCount":1}})
    .to_string();
    let msg = serde_json::json!({"type":"message","role":"assistant","content":"x\u{1b}[31my\r\nz\u{8}\tw\n"}).to_string();
    let out = ok(
        &["--width", "100", "--markdown", "off"],
        &format!("{evil}\n{msg}"),
    );
    assert!(!out.contains('\x1b') && !out.contains('\u{9b}') && !out.contains('\u{7}'));
    assert!(out.starts_with("T^[]0;pwned^Gitle\n"), "{out}");
    assert!(out.contains("a^[[2Jb<U+009B>c<U+202E>d"), "{out}");
    assert!(out.ends_with("x^[[31my\nz^H\tw\n"), "{out:?}");
}

#[test]
fn ascii_mode_writes_no_byte_above_127() {
    let mut all = String::new();
    for f in [
        "wide-labels.jsonl",
        "wide-line.jsonl",
        "wide-table.jsonl",
        "chapters.jsonl",
        "gemini-stream.jsonl",
    ] {
        all.push_str(&testdata(f));
    }
    all.push_str(r#"{"type":"message","role":"assistant","content":"Café — “quoted” 日本 🚀…"}"#);
    let out = ok(&["--ascii", "--show-tools", "--width", "40"], &all);
    assert!(out.bytes().all(|b| b < 0x80));
    assert!(out.contains("Cafe -- \"quoted\" ?? ?..."), "{out}");
}

#[test]
fn charts_fit_width_20() {
    for f in [
        "bmw.jsonl",
        "negative.jsonl",
        "multi.jsonl",
        "wide-labels.jsonl",
        "wide-table.jsonl",
    ] {
        let out = ok(&["--width", "20"], &testdata(f));
        for l in out.lines() {
            assert!(unicode_width::UnicodeWidthStr::width(l) <= 20, "{f}: {l:?}");
        }
    }
}

#[test]
fn a_closed_pipe_ends_quietly_with_success() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_viz-render"))
        .env_clear()
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || {
        let chart = testdata("multi.jsonl");
        for _ in 0..2000 {
            if stdin.write_all(chart.as_bytes()).is_err() {
                break;
            }
        }
    });
    let mut first = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    assert_eq!(first, "Stock prices\n");
    // The reader is gone (dropped above), like `| head -1`.
    let status = child.wait().unwrap();
    writer.join().unwrap();
    let mut err = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    assert!(status.success(), "{status:?} {err}");
    assert_eq!(err, "");
}

/// A reader gone before the first byte (`| head -c 10` on a big spec):
/// every output format ends quietly with 0. The Vega-Lite export said
/// "error: Broken pipe" and exited 1 (serde_json's error hid the
/// io::Error from the check).
#[test]
fn a_reader_gone_before_the_first_byte_is_quiet_in_every_format() {
    // A spec larger than any write buffer: written through to the pipe.
    let labels: Vec<String> = (0..2000).map(|i| format!("label number {i:04}")).collect();
    let points: Vec<(&str, f64)> = labels.iter().map(|l| (l.as_str(), 1.0)).collect();
    let chart = bar(&points) + "\n";
    for format in ["vega-lite", "svg", "markdown", "json", "terminal"] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_viz-render"))
            .env_clear()
            .args(["--format", format])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        drop(child.stdout.take());
        let mut stdin = child.stdin.take().unwrap();
        let _ = stdin.write_all(chart.as_bytes());
        drop(stdin);
        let out = child.wait_with_output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{format}: {:?} {err}", out.status);
        assert_eq!(err, "", "{format}");
    }
}

#[test]
fn a_missing_file_is_exit_66() {
    let o = render(&["testdata/render/no-such-file.jsonl"], &[], "");
    assert_eq!(o.code, 66);
    assert!(
        o.stderr
            .contains("viz-render: error: cannot open testdata/render/no-such-file.jsonl"),
        "{}",
        o.stderr
    );
}

#[test]
fn files_are_read_in_order() {
    let o = render(
        &[
            "testdata/render/bmw.jsonl",
            "-",
            "testdata/render/negative.jsonl",
        ],
        &[],
        r#"{"type":"message","role":"assistant","content":"between"}"#,
    );
    assert_eq!(o.code, 0);
    let a = o.stdout.find("0-60 mph").unwrap();
    let b = o.stdout.find("between").unwrap();
    let c = o.stdout.find("Quarterly").unwrap();
    assert!(a < b && b < c, "{}", o.stdout);
}

#[test]
fn usage_errors_are_exit_2_and_help_lists_exit_codes() {
    assert_eq!(render(&["--bogus"], &[], "").code, 2);
    let o = render(&["--help"], &[], "");
    assert_eq!(o.code, 0);
    for needle in ["65", "66", "Exit status", "--chapters", "fallbackMode"] {
        assert!(o.stdout.contains(needle), "{needle} missing from --help");
    }
}

/// `viz-parse FILE | viz-render ...` as a shell runs it; the exit status of
/// every stage comes back on the last line.
fn shell_pipeline(pipeline: &str) -> (String, String) {
    let script = format!("{pipeline}; echo \"status ${{PIPESTATUS[*]}}\"");
    let out = Command::new("bash")
        .arg("-c")
        .arg(script)
        .env_clear()
        .env("LANG", "C.UTF-8")
        .env("PARSE", env!("CARGO_BIN_EXE_viz-parse"))
        .env("RENDER", env!("CARGO_BIN_EXE_viz-render"))
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    (
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

#[test]
fn viz_parse_into_viz_render_through_a_real_pipe() {
    let (out, err) =
        shell_pipeline(r#""$PARSE" testdata/bmw.csv | "$RENDER" --width 60 --color never"#);
    assert_eq!(
        out,
        "model                                           0-60 mph (s)\n\
         M5 CS                 ███████████████████████▊         2.9 s\n\
         M8 Competition Coupe  ████████████████████████▋        3.0 s\n\
         M3 Competition xDrive ███████████████████████████▉     3.4 s\n\
         M4 CSL                █████████████████████████████▌   3.6 s\n\
         i4 M50                ██████████████████████████████▍  3.7 s\n\
         X5 M Competition      ██████████████████████████████▍  3.7 s\n\
         M2                    ████████████████████████████████ 3.9 s\n\
         status 0 0\n"
    );
    assert_eq!(err, "");
}

#[test]
fn head_1_ends_both_programs_quietly_with_success() {
    // Far more output than a pipe holds, so both writers meet the closed pipe.
    let dir = temp_dir("head");
    let events = dir.join("charts.jsonl");
    let chart = testdata("bmw.jsonl");
    std::fs::write(&events, chart.repeat(5000)).unwrap();
    let path = events.to_str().unwrap();
    let (out, err) = shell_pipeline(&format!(
        r#""$PARSE" '{path}' | "$RENDER" --width 60 | head -1"#
    ));
    assert_eq!(out, "0-60 mph\nstatus 0 0 0\n");
    assert_eq!(err, "");
    // viz-parse alone, its event stream cut short.
    let (out, err) = shell_pipeline(&format!(r#""$PARSE" '{path}' | head -1"#));
    assert_eq!(
        out,
        format!("{}\nstatus 0 0\n", chart.lines().next().unwrap())
    );
    assert_eq!(err, "");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_directory_as_input_is_exit_66() {
    let o = render(&["testdata"], &[], "");
    assert_eq!(o.code, 66, "{}", o.stderr);
    assert_eq!(
        o.stderr,
        "viz-render: error: cannot open testdata: is a directory\n"
    );
}

/// Runs viz-render with its stderr a pipe whose reader is already gone,
/// then feeds `stdin`: every diagnostic hits a closed stderr.
fn with_closed_stderr(args: &[&str], stdin: &str) -> (i32, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_viz-render"))
        .args(args)
        .env_clear()
        .env("LANG", "C.UTF-8")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stderr.take());
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
    )
}

#[test]
fn a_closed_stderr_does_not_kill_the_render() {
    let input = format!(
        "not json\n{{\"type\":\"init\",\"session_id\":\"s\",\"model\":\"m\"}}\n{{\"type\":\"odd\"}}\n{}\n{{\"type\":\"result\",\"status\":\"success\",\"stats\":{{\"total_tokens\":3}}}}\n",
        bar(&[("a", 1.0)])
    );
    let (code, stdout) = with_closed_stderr(&["--verbose", "--width", "40"], &input);
    assert_eq!(code, 0, "stdout: {stdout}");
    assert!(stdout.contains('a'), "{stdout}");
    // --json warns about a bad chart on stderr too.
    let (code, _) = with_closed_stderr(&["--json"], "{\"type\":\"visualization\"}\n");
    assert_eq!(code, 0);
}

/// viz-render must not link the session store (file locks, data dirs):
/// the renderer reaches chapters only through `events`. Its crate depends
/// on gemline-core, which holds `topic` and `session` too, so the compiler
/// alone would let it name them.
#[test]
fn the_renderer_does_not_depend_on_topic_or_session() {
    let mut dirs = vec![std::path::PathBuf::from("crates/render/src")];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                dirs.push(path);
                continue;
            }
            let src = std::fs::read_to_string(&path).unwrap();
            for bad in [
                "crate::topic",
                "crate::session",
                "crate::agent",
                "gemline_core::topic",
                "gemline_core::session",
            ] {
                assert!(!src.contains(bad), "{} uses {bad}", path.display());
            }
        }
    }
}

/// The shared config (`$XDG_CONFIG_HOME/gemline/config.toml`) gives
/// viz-render its colour and width, as it gives gem-ask's; flags and the
/// environment win; a malformed file names its line and key.
#[test]
fn colour_and_width_come_from_the_config_unless_flags_or_environment_say() {
    let home = temp_dir("viz-render-config");
    let dir = home.join("gemline");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("config.toml"), "color = \"always\"\nwidth = 24\n").unwrap();
    let xdg = home.to_str().unwrap();
    let env = [("XDG_CONFIG_HOME", xdg), ("HOME", xdg)];
    let e = r#"{"type":"message","role":"assistant","content":"one two three four five six seven eight nine ten","delta":false}"#;
    let o = render(&["--markdown", "off"], &env, e);
    assert_eq!(o.code, 0, "{}", o.stderr);
    let plain = gemline::render::text::strip_ansi(&o.stdout);
    assert!(
        plain.lines().all(|l| l.len() <= 24) && plain.lines().count() > 1,
        "{plain:?}"
    );
    let chart = r#"{"type":"visualization","chartType":"bar","series":[{"name":"s","points":[{"label":"a","value":1}]}]}"#;
    assert!(
        render(&[], &env, chart).stdout.contains('\x1b'),
        "config colour not used"
    );
    // Flags, then NO_COLOR and COLUMNS, win over the file.
    let o = render(
        &["--markdown", "off", "--width", "80", "--color", "never"],
        &env,
        e,
    );
    assert_eq!(o.stdout.lines().count(), 1, "{:?}", o.stdout);
    assert!(!o.stdout.contains('\x1b'));
    let o = render(
        &[],
        &[env[0], env[1], ("NO_COLOR", "1"), ("COLUMNS", "80")],
        chart,
    );
    assert!(!o.stdout.contains('\x1b'), "{:?}", o.stdout);
    std::fs::write(dir.join("config.toml"), "width = \"wide\"\n").unwrap();
    let o = render(&[], &env, chart);
    assert_eq!(o.code, 2, "{}", o.stderr);
    assert!(
        o.stderr.contains("config.toml") && o.stderr.contains("width"),
        "{}",
        o.stderr
    );
}

/// A scatter event of `series` series, `n` points each, all in the same
/// cloud (a cell holds points of several series).
fn cloud(series: usize, n: usize) -> String {
    let series: Vec<serde_json::Value> = (0..series)
        .map(|s| {
            let points: Vec<serde_json::Value> = (0..n)
                .map(|i| {
                    // Spread over the plane, each series shifted a little.
                    let x = ((i * 37 + s * 11) % 101) as f64;
                    let y = ((i * 53 + s * 7) % 97) as f64;
                    serde_json::json!({"label": x.to_string(), "x": x, "value": y})
                })
                .collect();
            serde_json::json!({"name": format!("g{s}"), "points": points})
        })
        .collect();
    serde_json::json!({"type": "visualization", "chartType": "point", "xType": "number", "series": series})
        .to_string()
}

/// Without colour, a dense scatter's series are told apart by their
/// markers, as the legend says, never by braille dots that look alike;
/// a cell shows the series with the most points in it. Unicode and ASCII.
#[test]
fn without_colour_a_dense_scatter_shows_each_series_marker() {
    let chart = cloud(2, 1500);
    for (args, marks) in [
        (vec!["--width", "60", "--color", "never"], ['●', '◆']),
        (
            vec!["--width", "60", "--color", "never", "--ascii"],
            ['*', '+'],
        ),
    ] {
        let out = ok(&args, &chart);
        let plot: String = out
            .lines()
            .filter(|l| l.contains('┤') || l.contains('|'))
            .collect();
        for m in marks {
            assert!(plot.matches(m).count() > 20, "{m} drawn: {out}");
        }
        assert!(
            !plot.chars().any(|c| ('\u{2801}'..='\u{28ff}').contains(&c)),
            "{out}"
        );
    }
    // With colour, dots keep the density.
    let coloured = ok(&["--width", "60", "--color", "always"], &chart);
    assert!(
        coloured
            .chars()
            .any(|c| ('\u{2801}'..='\u{28ff}').contains(&c))
    );
}

/// Up to twelve series each have a marker of their own in the legend,
/// Unicode and ASCII: a legend without colour names each series once.
#[test]
fn twelve_series_have_twelve_markers() {
    let chart = cloud(12, 3);
    for ascii in [false, true] {
        let mut args = vec!["--width", "120", "--color", "never"];
        if ascii {
            args.push("--ascii");
        }
        let out = ok(&args, &chart);
        // Legend entries: a marker, a space, the series' name.
        let marks: std::collections::HashSet<char> = out
            .lines()
            .flat_map(|l| l.split("  "))
            .filter_map(|entry| {
                let (mark, name) = entry.trim().split_once(' ')?;
                (name.starts_with('g') && mark.chars().count() == 1).then(|| mark.chars().next())?
            })
            .collect();
        assert_eq!(marks.len(), 12, "{out}");
    }
}
