//! `viz-render --graphics`: charts drawn as pictures on terminals that
//! show images, the escapes read back off a real pseudo-terminal and
//! decoded: kitty's APC pieces and iTerm2's OSC 1337 to the PNG they
//! carry, sixel with libsixel's own decoder (`sixel2png`, Debian's
//! libsixel-bin, installed by .ci/setup-graphics.sh; skipped with a loud
//! note where it is missing outside CI). Each picture is compared pixel
//! by pixel with the chart rasterised by `viz-render --format png` (the
//! same SVG at the same width: 80 columns of 10 pixels). Where the
//! terminal shows no images, in a pipe and with `--graphics off` nothing
//! but text is written; `--format png --output-dir` writes a PNG of the
//! SVG's size for every example chart.

use std::path::Path;
use std::process::Command;

use assert_cmd::cargo::cargo_bin;
use base64::Engine;

use crate::support::screen::{between, find, run_on_terminal};
use crate::support::{self, temp_dir};

/// 80 x 24 cells of 10 x 20 pixels.
const SCREEN: (u16, u16, u16, u16) = (80, 24, 800, 480);

fn bar_chart() -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/render/bmw.jsonl"))
        .unwrap()
}

fn line_chart() -> String {
    let points: Vec<String> = (0..200)
        .map(|i| {
            format!(
                r#"{{"label":"{i}","value":{}}}"#,
                (f64::from(i) / 9.0).sin() * 40.0
            )
        })
        .collect();
    format!(
        r#"{{"type":"visualization","chartType":"line","title":"Wave","unit":"ms","series":[{{"name":"rtt","points":[{}]}}]}}"#,
        points.join(",")
    ) + "\n"
}

/// Issue 22's charts, as viz-parse makes them of the real excerpts: a
/// scatter by species, a histogram, and lines over dates put to scale.
fn issue22_charts() -> Vec<String> {
    let runs: [&[&str]; 3] = [
        &[
            "--chart",
            "point",
            "-x",
            "bill_length_mm",
            "-y",
            "bill_depth_mm",
            "-s",
            "species",
            "testdata/real/penguins.csv",
        ],
        &[
            "--chart",
            "hist",
            "-y",
            "body_mass_g",
            "testdata/real/penguins.csv",
        ],
        &["testdata/real/stocks.csv"],
    ];
    runs.iter()
        .map(|args| {
            let out = assert_cmd::cargo::cargo_bin_cmd!("viz-parse")
                .current_dir(env!("CARGO_MANIFEST_DIR"))
                .args(*args)
                .output()
                .unwrap();
            assert!(out.status.success(), "{args:?}");
            let stream = String::from_utf8(out.stdout).unwrap();
            let kind = if args.contains(&"point") {
                "\"chartType\":\"point\""
            } else if args.contains(&"hist") {
                "\"chartType\":\"hist\""
            } else {
                "\"xType\":\"date\""
            };
            assert!(stream.contains(kind), "{args:?}: {stream}");
            stream
        })
        .collect()
}

fn viz_render(env: &[(&str, &str)], args: &[&str]) -> Command {
    let mut cmd = Command::new(cargo_bin!("viz-render"));
    cmd.env_clear()
        .env("LANG", "C.UTF-8")
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .args(args);
    for (k, v) in env {
        cmd.env(k, v);
    }
    cmd
}

/// The reference: the chart as `--format png` writes it, 800 px wide.
fn reference(stream: &str) -> png_image::Image {
    let out = Command::new(cargo_bin!("viz-render"))
        .args(["--format", "png"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .and_then(|mut c| {
            use std::io::Write;
            c.stdin.take().unwrap().write_all(stream.as_bytes())?;
            c.wait_with_output()
        })
        .unwrap();
    assert!(out.status.success());
    png_image::decode(&out.stdout)
}

/// A tiny PNG reader over the `png` crate: RGBA pixels.
mod png_image {
    pub struct Image {
        pub width: u32,
        pub height: u32,
        pub rgba: Vec<u8>,
    }

    pub fn decode(bytes: &[u8]) -> Image {
        let mut dec = png::Decoder::new(std::io::Cursor::new(bytes));
        dec.set_transformations(png::Transformations::EXPAND | png::Transformations::STRIP_16);
        let mut r = dec.read_info().expect("a PNG");
        let mut buf = vec![0; r.output_buffer_size().unwrap()];
        let info = r.next_frame(&mut buf).unwrap();
        buf.truncate(info.buffer_size());
        let rgba = match info.color_type {
            png::ColorType::Rgba => buf,
            png::ColorType::Rgb => buf
                .chunks(3)
                .flat_map(|p| [p[0], p[1], p[2], 255])
                .collect(),
            other => panic!("unexpected PNG colour type {other:?}"),
        };
        Image {
            width: info.width,
            height: info.height,
            rgba,
        }
    }
}

fn b64(data: &[u8]) -> Vec<u8> {
    base64::engine::general_purpose::STANDARD
        .decode(data)
        .expect("base64 payload")
}

/// Mean and largest absolute difference of two same-sized images, per
/// channel (alpha aside).
fn difference(a: &png_image::Image, b: &png_image::Image) -> (f64, u8) {
    assert_eq!((a.width, a.height), (b.width, b.height), "sizes differ");
    let mut sum = 0u64;
    let mut max = 0u8;
    for (p, q) in a.rgba.chunks(4).zip(b.rgba.chunks(4)) {
        for c in 0..3 {
            let d = p[c].abs_diff(q[c]);
            sum += u64::from(d);
            max = max.max(d);
        }
    }
    (sum as f64 / (a.rgba.len() / 4 * 3) as f64, max)
}

#[test]
fn kitty_pieces_carry_the_chart_pixel_for_pixel() {
    let streams = [vec![bar_chart(), line_chart()], issue22_charts()].concat();
    for stream in streams {
        let (code, bytes, err) = run_on_terminal(
            viz_render(&[("TERM", "xterm-kitty"), ("KITTY_WINDOW_ID", "1")], &[]),
            stream.as_bytes(),
            SCREEN,
        );
        assert_eq!(code, 0, "{err}");
        let pieces = between(&bytes, b"\x1b_G", b"\x1b\\");
        assert!(
            !pieces.is_empty(),
            "no kitty escape in {:?}",
            String::from_utf8_lossy(&bytes)
        );
        let mut payload = Vec::new();
        for (i, p) in pieces.iter().enumerate() {
            let semi = find(p, b";").unwrap();
            let keys = std::str::from_utf8(&p[..semi]).unwrap();
            if i == 0 {
                assert!(keys.starts_with("a=T,f=100,q=2,c=80"), "{keys}");
            }
            let last = i + 1 == pieces.len();
            assert!(keys.ends_with(if last { "m=0" } else { "m=1" }), "{keys}");
            assert!(p.len() - semi - 1 <= 4096);
            payload.extend_from_slice(&p[semi + 1..]);
        }
        let shown = png_image::decode(&b64(&payload));
        let want = reference(&stream);
        assert_eq!(difference(&shown, &want), (0.0, 0));
        // Not blank: the chart's ink is there.
        let ink = want.rgba.chunks(4).filter(|p| p[0] < 128).count();
        assert!(ink > 200, "{ink} dark pixels");
        // The chart's text lines are not drawn besides the picture (the
        // escapes' base64 aside, where any word may turn up).
        let mut outside = bytes.clone();
        while let Some(i) = find(&outside, b"\x1b_G") {
            let j = i + find(&outside[i..], b"\x1b\\").unwrap() + 2;
            outside.drain(i..j);
        }
        let text = String::from_utf8_lossy(&outside);
        assert!(!text.contains("M5 CS") && !text.contains("rtt"), "{text}");
    }
}

#[test]
fn iterm_escape_carries_the_chart_pixel_for_pixel() {
    let stream = bar_chart();
    let (code, bytes, err) = run_on_terminal(
        viz_render(
            &[("TERM", "xterm-256color"), ("TERM_PROGRAM", "iTerm.app")],
            &[],
        ),
        stream.as_bytes(),
        SCREEN,
    );
    assert_eq!(code, 0, "{err}");
    let escapes = between(&bytes, b"\x1b]1337;File=", b"\x07");
    assert_eq!(escapes.len(), 1, "{:?}", String::from_utf8_lossy(&bytes));
    let colon = find(escapes[0], b":").unwrap();
    let args = std::str::from_utf8(&escapes[0][..colon]).unwrap();
    let png = b64(&escapes[0][colon + 1..]);
    assert_eq!(
        args,
        format!("inline=1;size={};width=80;preserveAspectRatio=1", png.len())
    );
    assert_eq!(
        difference(&png_image::decode(&png), &reference(&stream)),
        (0.0, 0)
    );
}

#[test]
fn sixel_decoded_by_libsixel_matches_the_chart() {
    let installed = || Command::new("sixel2png").arg("--version").output().is_ok();
    if support::setup_tool(".ci/setup-graphics.sh", "libsixel's sixel2png", installed).is_none() {
        return;
    }
    let dir = temp_dir("graphics-sixel");
    for (name, stream) in [("bar", bar_chart()), ("line", line_chart())] {
        let (code, bytes, err) = run_on_terminal(
            viz_render(&[("TERM", "foot")], &[]),
            stream.as_bytes(),
            SCREEN,
        );
        assert_eq!(code, 0, "{err}");
        let dcs = between(&bytes, b"\x1bP", b"\x1b\\");
        assert_eq!(dcs.len(), 1, "{name}: one sixel image");
        let six = dir.join(format!("{name}.six"));
        let png = dir.join(format!("{name}.png"));
        // The terminal turned each \n into \r\n; sixel data has neither.
        let mut seq = b"\x1bP".to_vec();
        seq.extend_from_slice(dcs[0]);
        seq.extend_from_slice(b"\x1b\\");
        std::fs::write(&six, &seq).unwrap();
        let st = Command::new("sixel2png")
            .arg("-i")
            .arg(&six)
            .arg("-o")
            .arg(&png)
            .status()
            .unwrap();
        assert!(st.success(), "sixel2png refused {name}");
        let shown = png_image::decode(&std::fs::read(&png).unwrap());
        let want = reference(&stream);
        let (mean, _) = difference(&shown, &want);
        // 256 colours for an anti-aliased picture: close, not equal.
        assert!(mean < 2.0, "{name}: mean difference {mean}");
    }
}

#[test]
fn no_picture_where_the_terminal_shows_none_or_into_a_pipe() {
    let stream = bar_chart();
    let esc = |b: &[u8]| {
        find(b, b"\x1b_G").is_some()
            || find(b, b"\x1b]1337").is_some()
            || find(b, b"\x1bP").is_some()
    };
    // A terminal of no known protocol, tmux, and --graphics off: text.
    for (env, args) in [
        (vec![("TERM", "xterm-256color")], vec![]),
        (
            vec![
                ("TERM", "tmux-256color"),
                ("TMUX", "/tmp/t,1,0"),
                ("KITTY_WINDOW_ID", "1"),
            ],
            vec![],
        ),
        (vec![("TERM", "xterm-kitty")], vec!["--graphics", "off"]),
    ] {
        let (code, bytes, _) = run_on_terminal(viz_render(&env, &args), stream.as_bytes(), SCREEN);
        assert_eq!(code, 0);
        assert!(!esc(&bytes), "{env:?} {args:?}: an image escape");
        assert!(String::from_utf8_lossy(&bytes).contains("M5 CS"));
    }
    // A pipe gets exactly what it got before, whatever --graphics says,
    // on a kitty terminal's environment.
    let piped = |g: &str| {
        let mut c = viz_render(
            &[("TERM", "xterm-kitty"), ("KITTY_WINDOW_ID", "1")],
            &["--graphics", g],
        );
        let mut child = c
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        use std::io::Write;
        child
            .stdin
            .take()
            .unwrap()
            .write_all(stream.as_bytes())
            .unwrap();
        let out = child.wait_with_output().unwrap();
        assert!(out.status.success());
        out.stdout
    };
    let plain = piped("off");
    assert!(String::from_utf8_lossy(&plain).contains("M5 CS"));
    for g in ["kitty", "iterm", "sixel", "auto"] {
        let out = piped(g);
        assert_eq!(out, plain, "--graphics {g} into a pipe");
        assert!(!esc(&out));
    }
}

#[test]
fn format_png_writes_each_example_chart_at_its_svg_size() {
    let dir = temp_dir("graphics-png");
    let mut checked = 0;
    for file in support::example_files(&["render", "grammar"]) {
        let input = std::fs::read_to_string(&file).unwrap();
        let stem = file.file_stem().unwrap().to_string_lossy().into_owned();
        let (svg_dir, png_dir) = (
            dir.join(format!("{stem}-svg")),
            dir.join(format!("{stem}-png")),
        );
        for (fmt, d) in [("svg", &svg_dir), ("png", &png_dir)] {
            let (code, _, err) = support::filter(
                assert_cmd::cargo::cargo_bin_cmd!("viz-render"),
                &["--format", fmt, "--output-dir", d.to_str().unwrap()],
                &input,
            );
            assert_eq!(code, 0, "{stem} {fmt}: {err}");
        }
        let mut svgs: Vec<_> = std::fs::read_dir(&svg_dir)
            .map(|r| r.map(|e| e.unwrap().path()).collect())
            .unwrap_or_default();
        svgs.sort();
        for svg in svgs {
            let png = png_dir.join(svg.file_name().unwrap()).with_extension("png");
            let text = std::fs::read_to_string(&svg).unwrap();
            let doc = roxmltree::Document::parse(&text).unwrap();
            let attr = |k: &str| {
                doc.root_element()
                    .attribute(k)
                    .unwrap()
                    .parse::<u32>()
                    .unwrap()
            };
            let img = png_image::decode(
                &std::fs::read(&png).unwrap_or_else(|e| panic!("{}: {e}", png.display())),
            );
            assert_eq!(
                (img.width, img.height),
                (attr("width"), attr("height")),
                "{}",
                png.display()
            );
            // Not blank: the chart's ink is there.
            let ink = img.rgba.chunks(4).filter(|p| p[0] < 128).count();
            assert!(ink > 200, "{}: {ink} dark pixels", png.display());
            checked += 1;
        }
    }
    assert!(checked >= 15, "{checked} charts");
    // A PNG is never written to a terminal.
    let (code, bytes, err) = run_on_terminal(
        viz_render(&[("TERM", "xterm")], &["--format", "png"]),
        bar_chart().as_bytes(),
        SCREEN,
    );
    assert_eq!(code, 2, "{err}");
    assert!(bytes.is_empty() && err.contains("--output-dir"), "{err}");
}

#[test]
fn a_line_of_a_thousand_labelled_points_labels_a_few_not_all() {
    // Every label drawn on top of the others made the SVG unreadable, and
    // its picture slow to rasterise.
    let points: Vec<String> = (0..1000)
        .map(|i| format!(r#"{{"label":"{i}","value":{}}}"#, i % 17))
        .collect();
    let stream = format!(
        r#"{{"type":"visualization","chartType":"line","series":[{{"name":"s","points":[{}]}}]}}"#,
        points.join(",")
    );
    let (code, svg, err) = support::filter(
        assert_cmd::cargo::cargo_bin_cmd!("viz-render"),
        &["--format", "svg"],
        &stream,
    );
    assert_eq!(code, 0, "{err}");
    let texts = svg.matches("<text").count();
    assert!((10..=30).contains(&texts), "{texts} text elements");
    // The first label and every stride-th after it that fit side by side
    // (render/svg/plot.rs thin_labels): 0, 100, ... 900.
    assert!(
        svg.contains(">\n0\n<") && svg.contains(">\n900\n<"),
        "first and later labels kept"
    );
}
