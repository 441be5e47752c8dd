//! Refusals before any work and one vocabulary across the commands: output
//! paths checked when the arguments are parsed, counts read exactly, one
//! BER parser, missing arguments named, long runs announced or refused,
//! `merge` naming the kind of file it was given, and `--plot` on `hd` and
//! `weights`.

use std::path::Path;
use std::time::{Duration, Instant};

struct Run {
    code: i32,
    stdout: String,
    stderr: String,
    took: Duration,
}

fn alias(args: &[&str]) -> Run {
    let t = Instant::now();
    let out = crate::util::alias(args);
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        took: t.elapsed(),
    }
}

/// Refused by the argument parser (a value or combination its rules
/// refuse: the typed reason `arguments`): [`refused_by`].
fn refused(args: &[&str], want: &str) {
    refused_by(args, "arguments", want)
}

/// Exit 2, nothing on stdout, one line `error: ...` containing `want`, and
/// fast: each of these commands would compute for seconds to years if the
/// refusal came after the work. The refusal is the rule expected: the
/// program in-process refuses the same command line with the typed reason
/// `reason` ([`aliasing_cli::RunError::reason`]) and the same line; where
/// it cannot take the command line (`-o`, `plot`), the parser's refusals
/// are told from the others by the parser's own forms.
fn refused_by(args: &[&str], reason: &str, want: &str) {
    let r = alias(args);
    assert_eq!(r.code, 2, "{args:?}: {}", r.stderr);
    assert!(r.stdout.is_empty(), "{args:?}: {}", r.stdout);
    assert!(r.stderr.starts_with("error: "), "{args:?}: {}", r.stderr);
    assert_eq!(
        r.stderr.trim_end().lines().count(),
        1,
        "{args:?}: {}",
        r.stderr
    );
    assert!(
        r.stderr.contains(want),
        "{args:?}: want {want:?} in {}",
        r.stderr
    );
    assert!(
        r.took < Duration::from_secs(5),
        "{args:?} took {:?}",
        r.took
    );
    match crate::util::refusal(args) {
        Some((typed, message)) => {
            assert_eq!(typed, reason, "{args:?}: {message}");
            assert_eq!(r.stderr.trim_end(), format!("error: {message}"), "{args:?}");
        }
        None => {
            let forms = ["invalid value '", "not provided", "cannot be used with"];
            let parser = forms.iter().any(|f| r.stderr.contains(f));
            assert_eq!(parser, reason == "arguments", "{args:?}: {}", r.stderr);
        }
    }
}

fn p(dir: &Path, name: &str) -> String {
    dir.join(name).to_str().unwrap().to_string()
}

#[test]
fn output_paths_are_refused_before_any_work_in_every_command() {
    let d = tempfile::tempdir().unwrap();
    let missing = p(d.path(), "no/such/folder/x.txt");
    let folder = d.path().to_str().unwrap().to_string();
    let file = p(d.path(), "file");
    std::fs::write(&file, "x").unwrap();
    let under_file = format!("{file}/x.txt");
    // long computations, each with a bad output path
    let long: Vec<Vec<&str>> = vec![
        vec![
            "curve",
            "--crc",
            "crc32",
            "--bits",
            "12144,20000,30000",
            "--ber",
            "1e-5",
        ],
        vec!["compare", "--bytes", "64:9000:1", "--ber", "1e-5"],
        vec!["hd", "--crc", "crc32"],
        vec!["weights", "--crc", "crc32", "--bits", "12144"],
        vec!["simulate", "--frames", "1e12"],
        vec!["stack", "--bytes", "1518,9000", "--ber", "1e-5"],
        vec![
            "search", "--width", "16", "--bits", "12144", "--ber", "1e-5",
        ],
    ];
    for cmd in &long {
        for (bad, want) in [
            (&missing, "does not exist"),
            (&folder, "is a folder"),
            (&under_file, "is not a folder"),
        ] {
            let mut a = cmd.clone();
            a.extend(["-o", bad.as_str()]);
            refused(&a, want);
        }
        if cmd[0] != "weights" {
            let mut a = cmd.clone();
            a.extend(["--plot", "x.gif"]);
            refused(&a, ".svg or .png");
            let mut a = cmd.clone();
            a.extend(["--plot", &missing]);
            refused(&a, "does not exist");
        }
    }
    refused(
        &["simulate", "--frames", "1e12", "--checkpoint", &missing],
        "does not exist",
    );
    refused(
        &[
            "simulate", "--frames", "1e12", "--shard", "1/2", "--out", &folder,
        ],
        "is a folder",
    );
    refused(&["merge", "a.json", "--out", &missing], "does not exist");
    refused(&["plot", "a.json", "-o", "x.pdf"], ".svg or .png");
    refused(
        &["weights", "--crc", "16", "--bits", "64", "--plot", "w.jpg"],
        ".svg or .png",
    );
}

#[test]
fn two_options_naming_one_file_are_refused() {
    let d = tempfile::tempdir().unwrap();
    let x = p(d.path(), "x.json");
    // the same file under another spelling of its folder
    let y = format!("{}/./x.json", d.path().to_str().unwrap());
    refused_by(
        &[
            "simulate", "--frames", "1e12", "--shard", "1/2", "--out", &x, "-o", &y,
        ],
        "invalid",
        "name the same file",
    );
    refused_by(
        &[
            "simulate",
            "--frames",
            "1e12",
            "--checkpoint",
            &x,
            "--out",
            &x,
        ],
        "invalid",
        "name the same file",
    );
    let s = p(d.path(), "x.svg");
    refused_by(
        &[
            "curve", "--crc", "crc32", "--bits", "30000", "-o", &s, "--plot", &s,
        ],
        "invalid",
        "name the same file",
    );
    refused_by(
        &[
            "stack", "--bytes", "1518", "--ber", "1e-5", "--out", &x, "-o", &x,
        ],
        "invalid",
        "name the same file",
    );
    refused_by(
        &[
            "weights", "--crc", "crc32", "--bits", "12144", "--out", &x, "-o", &x,
        ],
        "invalid",
        "name the same file",
    );
    assert!(
        std::fs::read_dir(d.path()).unwrap().next().is_none(),
        "nothing written"
    );
}

#[test]
fn counts_are_exact_in_every_command() {
    // 10000000000000001 stays that number (it ran as 1e16 through a float)
    refused_by(
        &["simulate", "--frames", "10000000000000001"],
        "invalid",
        "--frames 10000000000000001: at most 1e16",
    );
    refused_by(&["simulate", "--frames", "0"], "invalid", "at least 1");
    for (args, want) in [
        (
            vec!["simulate", "--frames", "1.5"],
            "`1.5` is not a whole number",
        ),
        (
            vec!["simulate", "--frames", "1e30"],
            "`1e30` is out of range",
        ),
        (vec!["simulate", "--frames", "-5"], "is negative"),
        (vec!["simulate", "--seed", "1e20"], "out of range"),
        (vec!["simulate", "--bytes", "1.5"], "not a whole number"),
        (
            vec!["simulate", "--errors", "5e9"],
            "out of range (at most 4294967295)",
        ),
        (
            vec!["simulate", "--rare", "--samples", "2.5"],
            "not a whole number",
        ),
        (
            vec![
                "stack",
                "--bytes",
                "64",
                "--ber",
                "1e-5",
                "--samples",
                "1e-3",
            ],
            "not a whole number",
        ),
        (
            vec![
                "stack",
                "--bytes",
                "64",
                "--ber",
                "1e-5",
                "--max-weight",
                "1e10",
            ],
            "out of range",
        ),
        (
            vec![
                "weights",
                "--crc",
                "16",
                "--bits",
                "64",
                "--max-weight",
                "x",
            ],
            "not a whole number",
        ),
        (
            vec!["hd", "--crc", "16", "--max-hd", "1e12"],
            "out of range",
        ),
        (
            vec!["search", "--width", "1e10", "--bits", "64", "--ber", "1e-5"],
            "out of range",
        ),
        (
            vec![
                "search", "--width", "8", "--bits", "64", "--ber", "1e-5", "--top", "1.5",
            ],
            "not a whole number",
        ),
    ] {
        refused(&args, want);
    }
    // exponent notation where the value is whole: the same table as digits
    let a = alias(&[
        "weights",
        "--crc",
        "16",
        "--bits",
        "6.4e1",
        "--max-weight",
        "4e0",
    ]);
    let b = alias(&[
        "weights",
        "--crc",
        "16",
        "--bits",
        "64",
        "--max-weight",
        "4",
    ]);
    assert_eq!((a.code, b.code), (0, 0), "{}{}", a.stderr, b.stderr);
    assert_eq!(a.stdout, b.stdout);
    // --samples reads the same in simulate and stack
    let s = alias(&[
        "stack",
        "--stack",
        "internet+crc16",
        "--bytes",
        "64",
        "--ber",
        "1e-3",
        "--samples",
        "1e3",
    ]);
    assert_eq!(s.code, 0, "{}", s.stderr);
    let s = alias(&[
        "simulate",
        "--rare",
        "--bytes",
        "64",
        "--ber",
        "1e-3",
        "--samples",
        "1e3",
        "--no-exact",
        "--format",
        "json",
    ]);
    assert_eq!(s.code, 0, "{}", s.stderr);
}

#[test]
fn one_ber_parser_everywhere() {
    for cmd in [
        vec!["curve", "--crc", "16"],
        vec!["compare", "--bytes", "64"],
        vec!["stack", "--bytes", "64"],
        vec!["search", "--width", "8", "--bits", "64"],
        vec!["simulate"],
    ] {
        for (ber, want) in [
            ("abc", "bit error rate `abc` is not a number"),
            ("1.5", "outside [0, 1]"),
            ("-0.1", "outside [0, 1]"),
            ("1e-400", "underflows to 0"),
        ] {
            let mut a = cmd.clone();
            a.extend(["--ber", ber]);
            refused(&a, want);
        }
    }
    refused(
        &["simulate", "--ber", "1e-5,1e-6"],
        "one bit error rate here, not a list",
    );
    // BER 0: nothing is ever in error, for every check (the Internet
    // checksum's method refused it with "-1.000e0" in its message)
    for check in ["internet", "fletcher16", "crc16"] {
        let r = alias(&[
            "curve", "--check", check, "--ber", "0", "--bytes", "64", "--format", "csv",
        ]);
        assert_eq!(r.code, 0, "{check}: {}", r.stderr);
        let row = r.stdout.lines().nth(1).unwrap();
        assert!(row.starts_with("0e0,512,"), "{check}: {row}");
        let cols: Vec<&str> = row.split(',').collect();
        assert_eq!(&cols[3..], ["0e0"; 4], "{check}: {row}");
    }
    // the same Gilbert-Elliott parser in curve and simulate
    for cmd in [vec!["curve", "--crc", "8"], vec!["simulate"]] {
        let mut a = cmd.clone();
        a.extend(["--burst", "1e-5,0.1,0.5"]);
        refused(&a, "expected four numbers PG,PB,G2B,B2G");
    }
}

#[test]
fn missing_arguments_are_named_and_marked_in_help() {
    refused(&["stack", "--bytes", "1518"], "not provided: --ber <BER>");
    refused(&["search", "--width", "8"], "--bits <BITS>, --ber <BER>");
    refused(&["weights", "--crc", "16"], "--bits <BITS>");
    refused(&["curve"], "--crc <CRC>");
    refused(&["plot", "x.json"], "--output <OUTPUT>");
    // every option required by itself, and those required unless another
    // is given, say so in their help
    let always = [
        "curve", "hd", "weights", "compare", "simulate", "stack", "transfer",
    ]
    .into_iter()
    .chain(["search", "merge", "plot"])
    .flat_map(|cmd| {
        // `simulate` needs no argument and would run its default (a
        // CRC-32's dual code, 1.6 s of CPU): one frame, no exact value
        // (given values do not hide a missing required argument)
        let e = if cmd == "simulate" {
            alias(&[cmd, "--frames", "1", "--no-exact"]).stderr
        } else {
            alias(&[cmd]).stderr
        };
        let listed = e.split("not provided: ").nth(1).unwrap_or("");
        let listed = listed.split(" (see --help)").next().unwrap().to_string();
        let opts: Vec<String> = listed
            .split([',', ';', ' '])
            .filter(|w| w.starts_with("--"))
            .map(String::from)
            .collect();
        opts.into_iter().map(move |o| (cmd, o))
    })
    .collect::<Vec<_>>();
    assert!(always.len() >= 5, "{always:?}");
    let named = [
        ("stack", "--bytes"),
        ("stack", "--ber"),
        ("transfer", "--size"),
        ("search", "--width"),
        ("search", "--bits"),
        ("search", "--ber"),
        ("curve", "--crc"),
        ("compare", "--ber"),
        ("hd", "--crc"),
        ("weights", "--crc"),
        ("weights", "--bits"),
    ];
    let named = named.iter().map(|&(c, o)| (c, o.to_string()));
    // each command's help once
    let mut helps = std::collections::HashMap::new();
    for (cmd, opt) in always.into_iter().chain(named) {
        let help: &String = helps.entry(cmd).or_insert_with(|| {
            let h = alias(&[cmd, "--help"]);
            assert_eq!(h.code, 0);
            h.stdout
        });
        let options = help.find("Options:").unwrap();
        let at = options + help[options..].find(&format!(" {opt} <")).expect(&opt);
        let next = help[at + 2..]
            .find("\n      -")
            .map_or(help.len(), |i| at + 2 + i);
        assert!(
            help[at..next].contains("[required"),
            "{cmd} {opt}: {}",
            &help[at..next]
        );
    }
}

#[test]
fn merge_says_which_kind_of_file_it_was_given() {
    let fx = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures");
    let a = format!("{fx}/search-shard-1of2.json");
    let b = format!("{fx}/search-shard-2of2.json");
    // search shards merge (tests/cli/search.rs), but not as a simulation
    refused_by(
        &["merge", &a, &b, "--no-exact"],
        "invalid",
        "--no-exact is for simulations",
    );
    let d = tempfile::tempdir().unwrap();
    let report = p(d.path(), "report.json");
    let r = alias(&[
        "curve", "--crc", "8", "--bits", "64", "--ber", "1e-3", "--format", "json", "-o", &report,
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    refused_by(&["merge", &report], "invalid", "is not a shard file");
    let w = p(d.path(), "w.json");
    let r = alias(&[
        "weights", "--crc", "8", "--bits", "32", "--method", "dual", "--out", &w,
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    refused_by(
        &["merge", &w, &a],
        "invalid",
        "is a `alias-weights` file and",
    );
    let s = p(d.path(), "s.json");
    let r = alias(&[
        "simulate",
        "--frames",
        "1000",
        "--bytes",
        "64",
        "--out",
        &s,
        "--no-exact",
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    refused_by(
        &["merge", &w, &s],
        "invalid",
        "merge adds the shards of one run",
    );
}

#[test]
fn runs_beyond_a_day_need_allow_long() {
    refused_by(
        &["curve", "--crc", "24", "--bits", "1e9", "--ber", "1e-5"],
        "invalid",
        "over the limit of a day",
    );
    refused_by(&["simulate", "--frames", "1e16"], "invalid", "--allow-long");
    refused_by(
        &["simulate", "--rare", "--samples", "1e15"],
        "invalid",
        "--allow-long",
    );
    // --allow-long lets it past the estimate: the next refusal is another one
    refused_by(
        &[
            "--allow-long",
            "simulate",
            "--frames",
            "1e16",
            "--out",
            "x.json",
            "-o",
            "x.json",
        ],
        "invalid",
        "name the same file",
    );
}

/// The PNG's width and height (IHDR) and its decoded RGB pixels.
fn decode_png(path: &Path) -> (u32, u32, Vec<u8>) {
    let bytes = std::fs::read(path).unwrap();
    let mut reader = png::Decoder::new(std::io::Cursor::new(bytes))
        .read_info()
        .unwrap();
    let mut data = vec![0u8; reader.output_buffer_size()];
    let frame = reader.next_frame(&mut data).unwrap();
    data.truncate(frame.buffer_size());
    (frame.width, frame.height, data)
}

/// The text of every `<text>` element of an SVG document.
fn svg_texts(svg: &str) -> Vec<String> {
    svg.split("<text")
        .skip(1)
        .map(|s| {
            let open = s.find('>').unwrap();
            let close = s.find("</text>").unwrap();
            s[open + 1..close].trim().to_string()
        })
        .collect()
}

#[test]
fn hd_and_weights_plot() {
    let d = tempfile::tempdir().unwrap();
    let svg = p(d.path(), "hd.svg");
    let r = alias(&["hd", "--crc", "crc32", "--plot", &svg]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let s = std::fs::read_to_string(&svg).unwrap();
    assert!(s.starts_with("<svg"));
    let texts = svg_texts(&s);
    assert!(
        texts
            .iter()
            .any(|t| t.contains("Hamming-distance profile of CRC-32/ISO-HDLC")),
        "{texts:?}"
    );
    // HD 3 to 15 on the category axis (Koopman's profile of CRC-32)
    for hd in 3..=15 {
        assert!(
            texts.iter().any(|t| t == &hd.to_string()),
            "HD {hd}: {texts:?}"
        );
    }
    assert!(texts.iter().any(|t| t.contains("max data length")));
    // the profile: one polyline through the 13 points (the longest one)
    let most = s
        .split("<polyline")
        .skip(1)
        .map(|l| {
            let pts = l[l.find("points=\"").unwrap() + 8..]
                .split('"')
                .next()
                .unwrap();
            pts.split_whitespace().count()
        })
        .max();
    assert_eq!(most, Some(13));

    let png = p(d.path(), "w.png");
    let r = alias(&[
        "weights", "--crc", "16", "--bits", "64", "--dual", "--plot", &png,
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let (w, h, px) = decode_png(Path::new(&png));
    assert_eq!((w, h), (1100, 650));
    // white background, dark text and axes, and both series' colours
    let rgb: Vec<[u8; 3]> = px.chunks_exact(3).map(|c| [c[0], c[1], c[2]]).collect();
    let white = rgb.iter().filter(|c| **c == [255, 255, 255]).count();
    assert!(white > rgb.len() / 2);
    let coloured = rgb
        .iter()
        .filter(|c| c.iter().max().unwrap() - c.iter().min().unwrap() > 80)
        .count();
    assert!(coloured > 500, "{coloured} coloured pixels");
    let svg = p(d.path(), "w.svg");
    let r = alias(&["weights", "--crc", "16", "--bits", "64", "--plot", &svg]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let texts = svg_texts(&std::fs::read_to_string(&svg).unwrap());
    assert!(
        texts
            .iter()
            .any(|t| t.contains("Weight distribution of primitive-16")),
        "{texts:?}"
    );
    assert!(texts.iter().any(|t| t.contains("left out")), "{texts:?}");
    refused(
        &[
            "weights", "--crc", "16", "--bits", "64", "--plot", &svg, "--shard", "1/2", "--out",
            "o.json",
        ],
        "cannot be used with",
    );
}
