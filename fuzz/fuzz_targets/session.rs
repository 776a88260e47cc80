//! The session-file loader: any bytes give a history; every line is used
//! or reported; what is kept is a user or model Content; a turn appended
//! after whatever the file holds reads back whole.
#![no_main]

use gemline::session::parse_history;
use libfuzzer_sys::fuzz_target;
use serde_json::json;

fuzz_target!(|data: &[u8]| {
    let h = parse_history(data);
    let lines = data.split(|&b| b == b'\n').count();
    for c in &h.contents {
        assert!(matches!(c["role"].as_str(), Some("user" | "model")));
    }
    for (line, why) in &h.skipped {
        assert!(*line >= 1 && *line <= lines, "line {line} of {lines}");
        assert!(!why.is_empty());
    }
    assert!(h.contents.len() + h.skipped.len() <= lines);

    // What append writes after these bytes (the same text path as
    // session::append): the new turn must read back, whatever came before.
    let turn = json!({"role": "user", "parts": [{"text": "next"}]});
    let mut file = data.to_vec();
    if !file.is_empty() && !file.ends_with(b"\n") {
        file.push(b'\n');
    }
    file.extend_from_slice(
        gemline::session::content_record(&turn)
            .to_string()
            .as_bytes(),
    );
    file.push(b'\n');
    let after = parse_history(&file);
    assert_eq!(
        after.contents.last(),
        Some(&turn),
        "the appended turn was lost"
    );
    assert_eq!(after.contents.len(), h.contents.len() + 1);
});
