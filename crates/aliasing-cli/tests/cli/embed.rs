//! The program in-process ([`aliasing_cli::run_document`], what bindings
//! call): the same parse, refusals and documents as the binary.

use crate::util::alias_code_out_err;
use aliasing_cli::{Hooks, run_document};

fn argv(s: &str) -> Vec<String> {
    s.split_whitespace().map(String::from).collect()
}

/// The parser kept between calls parses and refuses as the binary does:
/// the same document before and after refusals, and each refusal's
/// message the binary's line, of reason `arguments`.
#[test]
fn a_kept_parser_parses_and_refuses_as_the_binary() {
    let h = Hooks::new();
    let good = "curve --crc 16 --bits 512,1024 --ber 1e-5";
    let first = run_document(&argv(good), &h).unwrap();
    let (code, out, err) = alias_code_out_err(
        &argv(&format!("{good} --format json"))
            .iter()
            .map(String::as_str)
            .collect::<Vec<_>>(),
    );
    assert_eq!(code, 0, "{err}");
    assert_eq!(out.trim_end(), first.trim_end());
    for bad in [
        "curve --crc 16 --bitz 5",
        "curve",
        "hd --crc 16 --max-hd many",
        "curve --crc 16 --bits 512 --bytes 64",
        "stack --bytes 1518",
    ] {
        let e = run_document(&argv(bad), &h).unwrap_err();
        let full = argv(&format!("{bad} --format json"));
        let (code, _, err) =
            alias_code_out_err(&full.iter().map(String::as_str).collect::<Vec<_>>());
        assert_eq!(code, 2, "{bad}");
        assert_eq!(err.trim_end(), format!("error: {}", e.message), "{bad}");
        assert_eq!(e.reason, "arguments", "{bad}");
    }
    assert_eq!(run_document(&argv(good), &h).unwrap(), first);
    let other = run_document(&argv("curve --crc 16 --bits 512 --ber 1e-6"), &h).unwrap();
    assert_ne!(other, first);
}

/// A library refusal that names a parameter is shown behind the option
/// that sets it (the libraries' messages name no option); one that names
/// none is shown as it is.
#[test]
fn the_option_behind_a_library_refusal_comes_first() {
    let h = Hooks::new();
    // a parameter refused (`invalid`), a method's limit (`unsupported`)
    for (args, option, reason) in [
        (
            "stack --bytes 64 --ber 1e-5 --max-weight 7",
            "--max-weight: ",
            "invalid",
        ),
        (
            "weights --crc crc32 --bits 100 --method syndromes --max-weight 8",
            "--max-weight: ",
            "unsupported",
        ),
    ] {
        let e = run_document(&argv(args), &h).unwrap_err();
        assert!(e.message.starts_with(option), "{args}: {}", e.message);
        assert!(!e.message[option.len()..].contains("--"), "{}", e.message);
        assert_eq!(e.reason, reason, "{args}");
    }
    let e = run_document(&argv("curve --crc crc33"), &h).unwrap_err();
    assert!(
        e.message.starts_with("unknown CRC or check `crc33`"),
        "{}",
        e.message
    );
    assert_eq!(e.reason, "unknown_name");
}
