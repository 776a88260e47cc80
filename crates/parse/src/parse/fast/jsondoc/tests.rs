use super::*;
use crate::parse::rows::{OwnedRow, owned};

/// The rows read, the names after them and the warnings.
type Read = (Vec<OwnedRow>, Option<Vec<String>>, Vec<String>);

/// What reading `text` gives, or the error.
fn read(text: &str) -> Result<Read, String> {
    let mut notes = Vec::new();
    let mut sink = |m: String| notes.push(m);
    let mut warn = Warner::new(&mut sink, false);
    let input: Box<dyn BufRead> = Box::new(text.as_bytes());
    let mut rows = match read_json(input, false).map_err(|e| e.to_string())? {
        JsonDoc::Rows(rows) => *rows,
        JsonDoc::Whole(docs) => return Err(format!("whole: {docs:?}")),
    };
    let mut out = Vec::new();
    while rows
        .next_row(&mut warn)
        .map_err(|e| e.to_string())?
        .is_some()
    {
        out.push(owned(rows.current()));
    }
    let names = rows.names().map(|n| n.list);
    Ok((out, names, notes))
}

fn cells(rows: &[OwnedRow]) -> Vec<Vec<&str>> {
    rows.iter()
        .map(|r| r.iter().map(|c| c.as_deref().unwrap_or("-")).collect())
        .collect()
}

#[test]
fn arrays_stream_as_records() {
    let (rows, names, notes) =
        read(r#"[{"a": "x", "b": 1}, {"b": 2.5, "a": "y"}, {"a": "z", "c": null}]"#).unwrap();
    assert_eq!(
        cells(&rows),
        [vec!["x", "1"], vec!["y", "2.5"], vec!["z", "-", "-"]]
    );
    assert_eq!(names.unwrap(), ["a", "b", "c"]);
    assert!(notes.is_empty(), "{notes:?}");
    let (rows, names, _) = read("[[\"a\", 1],\n [\"b\", 2]]").unwrap();
    assert_eq!(cells(&rows), [vec!["a", "1"], vec!["b", "2"]]);
    assert_eq!(names, None);
    let (rows, names, _) = read("[1, 2.5, \"3\"]").unwrap();
    assert_eq!(cells(&rows), [vec!["1"], vec!["2.5"], vec!["3"]]);
    assert_eq!(names.unwrap(), ["value"]);
}

#[test]
fn odd_elements_are_named_and_the_rest_kept() {
    let (rows, _, notes) = read(r#"[{"a": 1}, 7, {"a": 2,}, {"a": 3} {"a": 4}]"#).unwrap();
    assert_eq!(cells(&rows), [vec!["1"], vec!["3"], vec!["4"]]);
    assert!(
        notes[0].contains("record 2: 7 is not shaped like"),
        "{notes:?}"
    );
    // A long odd element is named by its first 40 characters.
    let (long, _, said) = read(&format!("[{{\"a\": 1}}, [{}9]]", "1, ".repeat(20))).unwrap();
    assert_eq!(cells(&long), [vec!["1"]]);
    let start = format!("record 2: [{}… is not shaped like", "1, ".repeat(13));
    assert!(said[0].contains(&start), "{said:?}");
    assert!(notes[1].contains("record 3: not JSON"), "{notes:?}");
    assert!(notes[2].contains("a comma is missing"), "{notes:?}");
    let (rows, _, notes) = read(r#"[{"a": 1}, {"a": 2"#).unwrap();
    assert_eq!(cells(&rows), [vec!["1"]]);
    assert!(notes[0].contains("starts at byte 11"), "{notes:?}");
    // Two arrays in a row are two rows, as an array of them would be.
    let (rows, _, _) = read(r#"[{"a": 1}] [2]"#).unwrap();
    assert_eq!(cells(&rows), [vec![r#"{"a":1}"#], vec!["2"]]);
    let e = read("[section]\nkey=1\n").unwrap_err();
    assert!(e.contains("JSON that does not parse"), "{e}");
}

#[test]
fn runs_of_documents_stream() {
    let (rows, names, _) = read("{\n \"a\": 1\n}\n{\n \"a\": 2\n}\n").unwrap();
    assert_eq!(cells(&rows), [vec!["1"], vec!["2"]]);
    assert_eq!(names.unwrap(), ["a"]);
    // Events stay whole: they are passed on as events.
    let e = read("{\"type\": \"message\"}\n{\"type\": \"result\"}\n").unwrap_err();
    assert!(e.starts_with("whole"), "{e}");
}

#[test]
fn a_long_wrapper_streams_its_array_and_names_the_rest() {
    let records: Vec<String> = (0..20_000)
        .map(|i| format!(r#"{{"k": "r{i}", "v": {i}}}"#))
        .collect();
    let text = format!(
        r#"{{"width": 2, "height": 3, "values": [{}], "units": "m"}}"#,
        records.join(",")
    );
    assert!(text.len() > WHOLE);
    let (rows, names, notes) = read(&text).unwrap();
    assert_eq!(rows.len(), 20_000);
    assert_eq!(cells(&rows[19_999..]), [vec!["r19999", "19999"]]);
    assert_eq!(names.unwrap(), ["k", "v"]);
    assert_eq!(
        notes,
        [
            "charted the array at .values; \"width\", \"height\", \"units\" beside it are not charted"
        ]
    );
    let two = format!(r#"{{"values": [{}], "more": [1]}}"#, records.join(","));
    let e = read(&two).unwrap_err();
    assert!(e.contains("arrays at .values, .more"), "{e}");
    // A long object that is no wrapper is read whole.
    let args = format!(
        r#"{{"chartType": "bar", "values": [{}]}}"#,
        records.join(",")
    );
    assert!(read(&args).unwrap_err().starts_with("whole"));
}

#[test]
fn short_objects_stay_whole() {
    let e = read(r#"{"width": 2, "values": [1, 2]}"#).unwrap_err();
    assert!(e.starts_with("whole"), "{e}");
}
