//! `alias plot`: re-plots saved JSON results; bad input exits 2 with one line
//! on stderr and leaves no file behind.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};

fn alias(args: &[&str], stdin: Option<&[u8]>) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_alias"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    {
        let mut i = child.stdin.take().unwrap();
        if let Some(b) = stdin {
            i.write_all(b).unwrap();
        }
    }
    child.wait_with_output().unwrap()
}

fn fixture(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../aliasing-plot/tests/data")
        .join(name)
        .to_string_lossy()
        .into_owned()
}

/// `name` inside `dir`, as a command-line argument.
fn arg(dir: &tempfile::TempDir, name: &str) -> String {
    dir.path().join(name).to_string_lossy().into_owned()
}

/// Nothing in `dir`, temporary files included.
fn is_empty(dir: &tempfile::TempDir) -> bool {
    std::fs::read_dir(dir.path()).unwrap().next().is_none()
}

fn assert_exit_2(out: &Output, mentions: &str) {
    assert_eq!(
        out.status.code(),
        Some(2),
        "stderr: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let err = String::from_utf8(out.stderr.clone()).unwrap();
    assert!(err.starts_with("error: "), "{err}");
    assert_eq!(err.trim_end().lines().count(), 1, "one line: {err}");
    assert!(
        err.contains(mentions),
        "{err:?} should mention {mentions:?}"
    );
    assert!(!err.contains("panicked"));
}

#[test]
fn plots_every_kind_to_svg_and_png() {
    let d = tempfile::tempdir().unwrap();
    for kind in ["curve", "compare", "simulate", "simulate-sweep"] {
        for ext in ["svg", "png"] {
            let out_path = arg(&d, &format!("{kind}.{ext}"));
            let out = alias(
                &["plot", &fixture(&format!("{kind}.json")), "-o", &out_path],
                None,
            );
            assert!(
                out.status.success(),
                "{kind}.{ext}: {}",
                String::from_utf8_lossy(&out.stderr)
            );
            let bytes = std::fs::read(&out_path).unwrap();
            assert!(bytes.len() > 5_000, "{kind}.{ext}: {} bytes", bytes.len());
            if ext == "svg" {
                assert!(bytes.starts_with(b"<svg"));
            } else {
                assert!(bytes.starts_with(b"\x89PNG\r\n\x1a\n"));
            }
        }
    }
}

#[test]
fn reads_stdin_and_takes_options() {
    let d = tempfile::tempdir().unwrap();
    let json = std::fs::read(fixture("curve.json")).unwrap();
    let p = arg(&d, "c.svg");
    let out = alias(
        &[
            "plot",
            "-",
            "-o",
            &p,
            "--y",
            "undetected",
            "--x",
            "bytes",
            "--size",
            "800x500",
        ],
        Some(&json),
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let svg = std::fs::read_to_string(&p).unwrap();
    assert!(svg.starts_with("<svg width=\"800\" height=\"500\""));
    assert!(svg.contains("P(undetected error)"));
    assert!(svg.contains("[bytes"));
}

#[test]
fn bad_extension_exits_2() {
    let d = tempfile::tempdir().unwrap();
    let out = alias(
        &["plot", &fixture("curve.json"), "-o", &arg(&d, "c.pdf")],
        None,
    );
    assert_exit_2(&out, ".svg or .png");
    assert!(is_empty(&d));
}

#[test]
fn malformed_json_exits_2() {
    let d = tempfile::tempdir().unwrap();
    let bad = arg(&d, "bad.json");
    std::fs::write(&bad, "{\"crc\": {\"name\": \"x\", ").unwrap();
    let out = alias(&["plot", &bad, "-o", &arg(&d, "p.png")], None);
    assert_exit_2(&out, "not valid JSON");
    let out = alias(&["plot", "-", "-o", &arg(&d, "p.svg")], Some(b"[1, 2"));
    assert_exit_2(&out, "not valid JSON");
    std::fs::remove_file(&bad).unwrap();
    assert!(is_empty(&d));
}

#[test]
fn unknown_or_wrong_documents_exit_2() {
    let d = tempfile::tempdir().unwrap();
    let out = alias(
        &["plot", "-", "-o", &arg(&d, "p.svg")],
        Some(br#"{"profile": [1, 2]}"#),
    );
    assert_exit_2(&out, "unrecognised result document");
    let out = alias(
        &["plot", "-", "-o", &arg(&d, "p.svg")],
        Some(br#"{"crc": {"name": "c", "width": 8}, "points": [{"bits": 8}]}"#),
    );
    assert_exit_2(&out, "malformed curve result");
    let out = alias(
        &["plot", &arg(&d, "missing.json"), "-o", &arg(&d, "p.svg")],
        None,
    );
    assert_exit_2(&out, "cannot read");
    let out = alias(
        &[
            "plot",
            &fixture("curve.json"),
            "-o",
            &arg(&d, "p.svg"),
            "--size",
            "10x10",
        ],
        None,
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(is_empty(&d));
}

/// `alias plot` redraws the saved document of every command with a figure:
/// a stack's and a search's `--format json` output replot to the very
/// picture their `--plot` drew.
#[test]
fn stack_and_search_documents_replot_to_their_commands_figures() {
    let dir = tempfile::tempdir().unwrap();
    for (cmd, args) in [
        (
            "stack",
            vec!["--stack", "ipv4-tcp+CRC-16/ARC", "--bytes", "60,120"],
        ),
        ("search", vec!["--width", "8", "--bits", "48,64"]),
    ] {
        let (json, drawn, redrawn) = (
            arg(&dir, &format!("{cmd}.json")),
            arg(&dir, &format!("{cmd}.svg")),
            arg(&dir, &format!("{cmd}-again.svg")),
        );
        let mut a = vec![cmd];
        a.extend(&args);
        a.extend(["--ber", "1e-4,1e-3", "--format", "json", "-o", &json]);
        a.extend(["--plot", &drawn]);
        let out = alias(&a, None);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let out = alias(&["plot", &json, "-o", &redrawn], None);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let (a, b) = (
            std::fs::read(&drawn).unwrap(),
            std::fs::read(&redrawn).unwrap(),
        );
        assert!(String::from_utf8_lossy(&a).contains("</svg>"), "{cmd}");
        assert_eq!(a, b, "{cmd}: the replot differs from the command's figure");
    }
}
