//! The quoted outputs of the README and of the guide are what the commands
//! print.
//!
//! A block of output in README.md, docs/guide/*.md or docs/performance.md is
//! checked when the line before it (blank lines aside) is a marker, invisible
//! on the rendered page:
//!
//! - `<!-- readme-test: alias ARGS -->`: every quoted line (a `...` line and
//!   a `$ ` command line excepted) is a line of the real output of `alias
//!   ARGS`, in the same order. Where the quote leaves lines of the output out
//!   (timings, long tables), a `...` line stands in their place, so a reader
//!   knows; lines left out silently are an error.
//! - `<!-- readme-test columns=A,B: alias ARGS -->`: a fast variant of a
//!   long run. Only columns `A`, `B` of the quoted table are compared: each
//!   quoted row with the real row of the same first column. Used where the
//!   quoted run takes minutes but some columns (the exact values) do not
//!   depend on what makes it long (the number of frames).
//!
//! Each check is also shown able to fail: one digit of the quote is changed
//! and the check must then report a mismatch.
//!
//! The test command checks every block of README.md and docs/performance.md
//! and a sample of the guide's: the guide's blocks in [`GUIDE_FULL_TIER`]
//! (the slowest to compute, 7 to 28 s of CPU each) are checked under
//! `ALIAS_TESTS=full` only. Every command of the README still has a checked
//! output in the test command.

use std::collections::BTreeSet;
use std::process::Command;

/// One checked block.
struct Case {
    /// The page and line of the marker (1-based), for messages.
    line: String,
    args: Vec<String>,
    columns: Option<Vec<String>>,
    quoted: Vec<String>,
}

const MARKER: &str = "<!-- readme-test";

/// The guide's blocks (their `alias` arguments) checked in the full tier
/// only: each costs seconds of CPU (measured alone, on 2 shared cores), and
/// another block of the same command is checked in the test command. A
/// block whose arguments change leaves this list and is checked in both.
const GUIDE_FULL_TIER: &[&str] = &[
    // 7.3 s: the CRC-32 dual code at 1518 bytes (curve: README, curve.md's burst block)
    "curve --crc crc32 --bytes 1518 --ber 1e-5",
    // 7.7 s: the exact column's joint model (simulate: simulate.md's --rare block)
    "simulate --frames 1e4 --bytes 1518 --ber 1e-5 --stack ethernet-tcp --seed 1",
    // 9.4 s: the CRC-32's dual code at 594 bytes (stack: stack.md's ipv4-tcp+CRC-16/ARC block)
    "stack --bytes 594 --ber 1e-5,1e-8",
    // 28 s: four corruption models' link tallies over 1 TB (transfer:
    // transfer.md's ipv4-tcp+CRC-16/ARC blocks)
    "transfer --size 1TB --mtu 1500 --ber 1e-10 --corruption splice:48:9.0909e-4 --corruption splice:48:3.125e-5 --corruption word:9.0909e-4 --corruption word:3.125e-5",
    // 2.1 s each: a Gilbert-Elliott curve at three lengths (curve: the
    // README's block), a user stack's bracket with 10,000 samples (stack:
    // stack.md's ipv4-tcp+CRC-16/ARC block), a bursty transfer's rare-event
    // draws (transfer: transfer.md's --ber block)
    "curve --crc CRC-16/IBM-3740 --burst 1e-7,0.3,1e-4,0.05 --bytes 64,594,1518",
    "stack --stack internet+CRC-8/SAE-J1850 --bytes 21 --ber 0.01",
    "transfer --stack ipv4-tcp+CRC-16/ARC --size 10TB --mtu 200 --burst 1e-6,0.5,1e-4,0.1 --hops 1,3 --samples 2e4 --seed 3",
];

fn cases(readme: &str) -> Vec<Case> {
    cases_in("README", readme)
}

fn cases_in(page: &str, readme: &str) -> Vec<Case> {
    let lines: Vec<&str> = readme.lines().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let l = lines[i].trim();
        if !l.starts_with(MARKER) {
            i += 1;
            continue;
        }
        let inner = l
            .strip_prefix(MARKER)
            .and_then(|s| s.strip_suffix("-->"))
            .unwrap_or_else(|| panic!("{page} line {}: marker on one line", i + 1));
        let (opts, cmd) = inner
            .split_once(':')
            .unwrap_or_else(|| panic!("{page} line {}: `readme-test: alias ...`", i + 1));
        let columns = opts
            .trim()
            .strip_prefix("columns=")
            .map(|c| c.split(',').map(str::to_string).collect::<Vec<_>>());
        assert!(
            columns.is_some() || opts.trim().is_empty(),
            "{page} line {}: unknown option",
            i + 1
        );
        let mut words = cmd.split_whitespace().map(str::to_string);
        assert_eq!(
            words.next().as_deref(),
            Some("alias"),
            "{page} line {}",
            i + 1
        );
        let args: Vec<String> = words.collect();
        let marker_line = format!("{page} line {}", i + 1);
        i += 1;
        while i < lines.len() && lines[i].trim().is_empty() {
            i += 1;
        }
        let mut quoted = Vec::new();
        if lines.get(i).is_some_and(|l| l.starts_with("```")) {
            i += 1;
            while i < lines.len() && !lines[i].starts_with("```") {
                quoted.push(lines[i].to_string());
                i += 1;
            }
        } else {
            // an indented block, blank lines inside it included
            while i < lines.len() {
                if let Some(q) = lines[i].strip_prefix("    ") {
                    quoted.push(q.to_string());
                } else if lines[i].trim().is_empty()
                    && lines[i + 1..]
                        .iter()
                        .find(|l| !l.trim().is_empty())
                        .is_some_and(|l| l.starts_with("    "))
                {
                    quoted.push(String::new());
                } else {
                    break;
                }
                i += 1;
            }
        }
        assert!(
            !quoted.is_empty(),
            "{marker_line}: no block after the marker"
        );
        out.push(Case {
            line: marker_line,
            args,
            columns,
            quoted,
        });
    }
    out
}

/// Fields of a table line: runs of two or more spaces separate them (a
/// field such as `IPv4 header checksum` holds single spaces).
fn fields(line: &str) -> Vec<&str> {
    line.trim()
        .split("  ")
        .map(str::trim)
        .filter(|f| !f.is_empty())
        .collect()
}

/// `Ok` when the quote matches the real output, else what differs.
fn check(case: &Case, quoted: &[String], real: &str) -> Result<(), String> {
    let real: Vec<&str> = real.lines().map(str::trim_end).collect();
    match &case.columns {
        None => {
            // `at`: the next output line; `gap`: a `...` line since the last
            // matched line, so output lines may be skipped there
            let mut at = 0;
            let mut gap = false;
            for q in quoted.iter().map(|q| q.trim_end()) {
                if q.trim() == "..." {
                    gap = true;
                    continue;
                }
                if q.starts_with("$ ") {
                    continue;
                }
                let skippable = |r: &&str| gap || r.trim().is_empty();
                match real[at..].iter().position(|r| *r == q) {
                    Some(k) if real[at..at + k].iter().all(skippable) => at += k + 1,
                    Some(_) => {
                        return Err(format!(
                            "output lines before this quoted line are left out without a `...` line:\n  {q}"
                        ));
                    }
                    None if q.is_empty() => {}
                    None => {
                        return Err(format!("quoted line not in the output (in order):\n  {q}"));
                    }
                }
                gap = false;
            }
            if !gap && real[at..].iter().any(|r| !r.trim().is_empty()) {
                return Err(
                    "output lines after the quote are left out without a `...` line".into(),
                );
            }
            Ok(())
        }
        Some(cols) => {
            let has_all = |l: &str| {
                let f = fields(l);
                cols.iter().all(|c| f.contains(&c.as_str()))
            };
            let qh = quoted
                .iter()
                .position(|l| has_all(l))
                .ok_or("no quoted header with those columns")?;
            let header = fields(&quoted[qh]);
            let rh = real
                .iter()
                .position(|l| fields(l) == header)
                .ok_or_else(|| format!("the output has no header line `{}`", quoted[qh].trim()))?;
            let idx: Vec<usize> = cols
                .iter()
                .map(|c| header.iter().position(|h| h == c).unwrap())
                .collect();
            let mut rows = 0;
            for q in quoted[qh + 1..].iter().take_while(|l| !l.trim().is_empty()) {
                let qf = fields(q);
                let r = real[rh + 1..]
                    .iter()
                    .map(|l| fields(l))
                    .find(|f| f.first() == qf.first())
                    .ok_or_else(|| format!("no output row `{}`", qf[0]))?;
                for &k in &idx {
                    if qf.get(k) != r.get(k) {
                        return Err(format!(
                            "row `{}`, column `{}`: quoted {:?}, output {:?}",
                            qf[0],
                            header[k],
                            qf.get(k),
                            r.get(k)
                        ));
                    }
                }
                rows += 1;
            }
            if rows == 0 {
                return Err("no quoted rows".into());
            }
            Ok(())
        }
    }
}

/// The quote with one digit changed, in a line (and column) the check reads.
fn with_a_digit_changed(case: &Case) -> Vec<String> {
    let mut q = case.quoted.clone();
    let bump = |l: &mut String, k: usize| {
        let d = l.as_bytes()[k];
        let nd = if d == b'9' { '8' } else { (d + 1) as char };
        l.replace_range(k..k + 1, &nd.to_string());
    };
    match &case.columns {
        None => {
            for l in q
                .iter_mut()
                .filter(|l| !l.starts_with("$ ") && l.trim() != "...")
            {
                if let Some(k) = l.rfind(|c: char| c.is_ascii_digit()) {
                    bump(l, k);
                    return q;
                }
            }
        }
        Some(cols) => {
            // the last checked column of the first row after the header
            let h = q
                .iter()
                .position(|l| cols.iter().all(|c| fields(l).contains(&c.as_str())))
                .expect("a header");
            let header: Vec<String> = fields(&q[h]).iter().map(|s| s.to_string()).collect();
            let col = header
                .iter()
                .position(|x| x == cols.last().unwrap())
                .unwrap();
            for l in q.iter_mut().skip(h + 1) {
                let Some(field) = fields(l).get(col).map(|f| f.to_string()) else {
                    continue;
                };
                let Some(at) = l.rfind(&field) else { continue };
                if let Some(k) = field.rfind(|c: char| c.is_ascii_digit()) {
                    bump(l, at + k);
                    return q;
                }
            }
        }
    }
    panic!("{}: no digit to change in the quote", case.line);
}

/// The README's text.
fn readme() -> String {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../README.md");
    std::fs::read_to_string(path).expect("README.md at the workspace root")
}

/// Every checked page: the README, each page of the guide, the performance
/// notes (the guide's blocks of [`GUIDE_FULL_TIER`] in the full tier only).
fn pages() -> Vec<Case> {
    let root = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."));
    let mut paths = vec![root.join("README.md"), root.join("docs/performance.md")];
    let mut guide: Vec<_> = std::fs::read_dir(root.join("docs/guide"))
        .expect("docs/guide")
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "md"))
        .collect();
    guide.sort();
    paths.extend(guide);
    let mut out = Vec::new();
    let full = crate::util::full_tier();
    let mut sampled_out = Vec::new();
    for p in paths {
        let text = std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
        let name = p.strip_prefix(root).unwrap().display().to_string();
        let in_guide = name.starts_with("docs/guide/");
        for c in cases_in(&name, &text) {
            let args = c.args.join(" ");
            let listed = in_guide && GUIDE_FULL_TIER.contains(&args.as_str());
            if listed {
                sampled_out.push(args);
            }
            if full || !listed {
                out.push(c);
            }
        }
    }
    // every listed block is in the guide (a stale entry would sample nothing)
    for a in GUIDE_FULL_TIER {
        assert!(
            sampled_out.iter().any(|s| s == a),
            "GUIDE_FULL_TIER: no block `alias {a}` in docs/guide"
        );
    }
    out
}

#[test]
fn quoted_outputs_are_real() {
    let cases = pages();
    // the commands the README quotes
    let covered: BTreeSet<&str> = cases.iter().map(|c| c.args[0].as_str()).collect();
    for cmd in [
        "curve", "compare", "hd", "weights", "simulate", "stack", "search", "transfer",
    ] {
        assert!(
            covered.contains(cmd),
            "no checked output of `alias {cmd}` in the README or the guide"
        );
    }
    // run them all at once (most are a fraction of a second; a few take seconds)
    let children: Vec<_> = cases
        .iter()
        .map(|c| {
            Command::new(env!("CARGO_BIN_EXE_alias"))
                .args(&c.args)
                .stdout(std::process::Stdio::piped())
                .stderr(std::process::Stdio::piped())
                .spawn()
                .expect("run alias")
        })
        .collect();
    let mut failures = Vec::new();
    for (case, child) in cases.iter().zip(children) {
        let o = child.wait_with_output().unwrap();
        let cmd = format!("alias {}", case.args.join(" "));
        if !o.status.success() {
            failures.push(format!(
                "{}: `{cmd}` failed: {}",
                case.line,
                String::from_utf8_lossy(&o.stderr)
            ));
            continue;
        }
        let real = String::from_utf8(o.stdout).unwrap();
        if let Err(e) = check(case, &case.quoted, &real) {
            failures.push(format!("{}: `{cmd}`: {e}", case.line));
        }
        // the check can fail: a changed digit is caught
        let changed = with_a_digit_changed(case);
        assert!(
            check(case, &changed, &real).is_err(),
            "{}: a changed digit went unnoticed",
            case.line
        );
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn the_checker_reads_both_block_forms() {
    let text = "x\n<!-- readme-test: alias hd --crc 8 -->\n\n    a  1\n\n    b  2\nafter\n\n\
                <!-- readme-test columns=k,v: alias x -->\n```text\n$ alias x\nk  v\nr  3\n```\n";
    let c = cases(text);
    assert_eq!(c.len(), 2);
    assert_eq!(c[0].args, ["hd", "--crc", "8"]);
    assert_eq!(c[0].quoted, ["a  1", "", "b  2"]);
    assert_eq!(
        c[1].columns.as_deref(),
        Some(&["k".to_string(), "v".to_string()][..])
    );
    assert_eq!(c[1].quoted, ["$ alias x", "k  v", "r  3"]);
    assert!(check(&c[0], &c[0].quoted, "a  1\n\nb  2\n").is_ok());
    // lines left out need a `...` line in their place, inside and at the end
    assert!(check(&c[0], &c[0].quoted, "a  1\nz\nb  2\n").is_err());
    assert!(check(&c[0], &c[0].quoted, "a  1\nb  2\nz\n").is_err());
    let gapped: Vec<String> = ["a  1", "...", "b  2", "..."].map(String::from).to_vec();
    assert!(check(&c[0], &gapped, "a  1\nz\nb  2\ny\n").is_ok());
    assert!(check(&c[0], &c[0].quoted, "b  2\na  1\n").is_err());
    assert!(check(&c[1], &c[1].quoted, "k  v  w\nq  1  1\nr  3  9\n").is_err()); // header differs
    assert!(check(&c[1], &c[1].quoted, "k  v\nq  1\nr  3\n").is_ok());
    assert!(check(&c[1], &with_a_digit_changed(&c[1]), "k  v\nr  3\n").is_err());
}

/// The commands of the first code block (indented, or fenced) after the
/// paragraph of README.md that starts with `lead`, one per line (a `$ `
/// prompt dropped), each as its words. The words are exactly what a shell
/// passes: a command with quotes, variables or other shell syntax is refused
/// here rather than split wrongly.
fn setup_commands(readme: &str, lead: &str) -> Vec<Vec<String>> {
    let lines: Vec<&str> = readme.lines().collect();
    let start = lines
        .iter()
        .position(|l| l.starts_with(lead))
        .unwrap_or_else(|| panic!("README.md: no paragraph starting `{lead}`"));
    let mut i = start + 1;
    while i < lines.len() && !lines[i].starts_with("    ") && !lines[i].starts_with("```") {
        assert!(
            i - start <= 6,
            "README line {}: no code block right after `{lead}`",
            start + 1
        );
        i += 1;
    }
    let mut block = Vec::new();
    if lines.get(i).is_some_and(|l| l.starts_with("```")) {
        i += 1;
        while i < lines.len() && !lines[i].starts_with("```") {
            block.push(lines[i]);
            i += 1;
        }
    } else {
        while i < lines.len() && lines[i].starts_with("    ") {
            block.push(lines[i]);
            i += 1;
        }
    }
    let cmds: Vec<Vec<String>> = block
        .iter()
        .map(|l| l.trim())
        .filter(|l| !l.is_empty())
        .map(|l| {
            let l = l.strip_prefix("$ ").unwrap_or(l);
            assert!(
                !l.contains(|c| "'\"`$\\|;&<>#*?(){}~".contains(c)),
                "README `{l}`: shell syntax this test does not interpret"
            );
            l.split_whitespace().map(str::to_string).collect()
        })
        .collect();
    assert!(!cmds.is_empty(), "README: no command after `{lead}`");
    cmds
}

const INSTALL: &str = "Install the command";
const MAIN_JOB: &str = "Run the main job";

fn workspace_root() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The workspace package of `cargo metadata` whose folder is `dir`
/// (relative to the workspace) or whose name is `name`.
fn package(meta: &serde_json::Value, dir: Option<&str>, name: Option<&str>) -> serde_json::Value {
    let root = workspace_root().canonicalize().unwrap();
    meta["packages"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| {
            let manifest = std::path::PathBuf::from(p["manifest_path"].as_str().unwrap());
            dir.is_none_or(|d| {
                root.join(d)
                    .join("Cargo.toml")
                    .canonicalize()
                    .is_ok_and(|m| m == manifest)
            }) && name.is_none_or(|n| p["name"] == n)
        })
        .cloned()
        .unwrap_or_else(|| panic!("no workspace package {dir:?} {name:?}"))
}

fn bins(p: &serde_json::Value) -> BTreeSet<String> {
    p["targets"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|t| t["kind"].as_array().unwrap().iter().any(|k| k == "bin"))
        .map(|t| t["name"].as_str().unwrap().to_string())
        .collect()
}

/// The built binary of this package named `name`.
fn built(name: &str) -> &'static str {
    match name {
        "alias" => env!("CARGO_BIN_EXE_alias"),
        "aliasing" => env!("CARGO_BIN_EXE_aliasing"),
        other => panic!("no binary `{other}` in aliasing-cli"),
    }
}

/// The `-p PACKAGE` and the program arguments after `--` of `cargo run`
/// words, refusing options this test does not know.
fn run_parts(words: &[String]) -> (String, Vec<String>) {
    assert_eq!(words[..2], ["cargo", "run"], "{words:?}");
    let dash = words.iter().position(|w| w == "--").unwrap_or(words.len());
    let (mut pkg, mut i) = (None, 2);
    while i < dash {
        match words[i].as_str() {
            "--release" | "--locked" | "-q" => {}
            "-p" | "--package" => {
                i += 1;
                pkg = words.get(i).cloned();
            }
            o => panic!("`cargo run` option {o}: teach this test what it does"),
        }
        i += 1;
    }
    let args = words.get(dash + 1..).unwrap_or_default().to_vec();
    (pkg.expect("cargo run -p PACKAGE"), args)
}

/// The README's set-up and main-job commands, as printed, hold on this tree
/// without a release build (which the test command cannot afford: 235 s of
/// CPU on 2 cores, measured): `cargo run -p PACKAGE` picks a binary of the
/// package (its `default-run`, or its only binary), which runs the printed
/// arguments; `cargo install --locked --path DIR` names a package with the
/// `alias` and `aliasing` binaries and a lock file that is up to date. The
/// commands themselves run in
/// `readme_setup_and_main_job_commands_run_verbatim` (ignored here; run it
/// with `cargo test -p aliasing-cli --test cli readme:: -- --ignored`).
#[test]
fn readme_setup_and_main_job_commands_hold() {
    let text = readme();
    let cargo = |args: &[&str]| {
        let out = Command::new(env!("CARGO"))
            .current_dir(workspace_root())
            .args(args)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "cargo {}: {}",
            args.join(" "),
            String::from_utf8_lossy(&out.stderr)
        );
        out.stdout
    };
    let meta = cargo(&[
        "metadata",
        "--format-version",
        "1",
        "--no-deps",
        "--offline",
    ]);
    let meta: serde_json::Value = serde_json::from_slice(&meta).unwrap();
    // `--locked`: the lock file needs no update (the resolve, offline)
    cargo(&[
        "tree",
        "--locked",
        "--offline",
        "-p",
        "aliasing-cli",
        "--depth",
        "0",
        "-q",
    ]);
    for words in setup_commands(&text, INSTALL) {
        assert_eq!(words[..2], ["cargo", "install"], "{words:?}");
        assert!(
            words.iter().any(|w| w == "--locked"),
            "`{}`: without --locked, cargo install resolves newer dependencies than the tested lock file",
            words.join(" ")
        );
        let at = words.iter().position(|w| w == "--path").expect("--path");
        let p = package(&meta, Some(&words[at + 1]), None);
        let expected: BTreeSet<String> = ["alias", "aliasing"].map(String::from).into();
        assert_eq!(bins(&p), expected, "{words:?}");
        for w in &words[2..] {
            assert!(
                ["--locked", "--path", &words[at + 1]].contains(&w.as_str()),
                "`cargo install` option {w}: teach this test what it does"
            );
        }
    }
    for words in setup_commands(&text, MAIN_JOB) {
        let (pkg, args) = run_parts(&words);
        let p = package(&meta, None, Some(&pkg));
        let b = bins(&p);
        // what `cargo run` picks, or its "could not determine which binary to run"
        let bin = match p["default_run"].as_str() {
            Some(d) => d.to_string(),
            None if b.len() == 1 => b.first().unwrap().clone(),
            None => panic!(
                "`{}`: {pkg} has bins {b:?} and no default-run",
                words.join(" ")
            ),
        };
        assert!(b.contains(&bin), "default-run {bin} is not a binary");
        let o = Command::new(built(&bin)).args(&args).output().unwrap();
        assert!(
            o.status.success() && !o.stdout.is_empty(),
            "`{}`: {}",
            words.join(" "),
            String::from_utf8_lossy(&o.stderr)
        );
    }
}

/// The README's main-job and set-up commands run exactly as printed, on
/// this tree, with the target folder of this test build (`cargo install`
/// gets `--root` a temporary folder: a test installs nowhere else). The main
/// job prints what the built binary prints. A release build: minutes from
/// cold (235 s of CPU measured), seconds when warm; hence ignored in the
/// test command. Run it with
/// `cargo test -p aliasing-cli --test cli readme:: -- --ignored`.
#[test]
#[ignore = "a release build: run with `cargo test -p aliasing-cli --test cli readme:: -- --ignored`"]
fn readme_setup_and_main_job_commands_run_verbatim() {
    let text = readme();
    let target = std::path::Path::new(env!("CARGO_BIN_EXE_alias"))
        .parent()
        .and_then(|d| d.parent())
        .unwrap()
        .to_path_buf();
    let cargo = |words: &[String]| {
        let o = Command::new(&words[0])
            .args(&words[1..])
            .current_dir(workspace_root())
            .env("CARGO_TARGET_DIR", &target)
            .output()
            .unwrap();
        assert!(
            o.status.success(),
            "`{}`: {}",
            words.join(" "),
            String::from_utf8_lossy(&o.stderr)
        );
        String::from_utf8(o.stdout).unwrap()
    };
    for words in setup_commands(&text, MAIN_JOB) {
        let printed = cargo(&words);
        let (_, args) = run_parts(&words);
        let o = Command::new(built("alias")).args(&args).output().unwrap();
        assert_eq!(printed, String::from_utf8(o.stdout).unwrap());
    }
    let root = tempfile::tempdir().unwrap();
    for mut words in setup_commands(&text, INSTALL) {
        words.extend(["--root".into(), root.path().display().to_string()]);
        cargo(&words);
        for name in ["alias", "aliasing"] {
            let o = Command::new(root.path().join("bin").join(name))
                .arg("--version")
                .output()
                .unwrap();
            assert_eq!(
                String::from_utf8(o.stdout).unwrap(),
                format!("{name} {}\n", env!("CARGO_PKG_VERSION"))
            );
        }
    }
}
