//! The grammar builder's unit tests: references read, no table a panic, units off header labels.

use super::*;

#[test]
fn references_read_numbers_dates_and_categories_with_their_labels() {
    let r = Reference::parse("x=5:5K", false).unwrap();
    assert_eq!(
        (r.x, r.from, r.label.as_deref()),
        (true, Operand::Number(5.0), Some("5K"))
    );
    let r = Reference::parse("y=150", false).unwrap();
    assert_eq!(
        (r.x, r.from, r.label),
        (false, Operand::Number(150.0), None)
    );
    let r = Reference::parse("x=2026-03-01T07:30:race day", false).unwrap();
    assert_eq!(r.from, Operand::Text("2026-03-01T07:30".into()));
    assert_eq!(r.label.as_deref(), Some("race day"));
    let r = Reference::parse("x=2026-03-01T07:30:00", false).unwrap();
    assert_eq!(
        (r.from, r.label),
        (Operand::Text("2026-03-01T07:30:00".into()), None)
    );
    let r = Reference::parse("x=5:split: fast", false).unwrap();
    assert_eq!(r.label.as_deref(), Some("split: fast"));
    let r = Reference::parse("x=2..3:lap 3", true).unwrap();
    assert_eq!(
        (r.from, r.to),
        (Operand::Number(2.0), Some(Operand::Number(3.0)))
    );
    assert_eq!(r.label.as_deref(), Some("lap 3"));
    let r = Reference::parse("x=Tue:rest", false).unwrap();
    assert_eq!(
        (r.from, r.label.as_deref()),
        (Operand::Text("Tue".into()), Some("rest"))
    );
    let r = Reference::parse("x=2026-03..2026-04", true).unwrap();
    assert_eq!(r.to, Some(Operand::Text("2026-04".into())));
    for bad in ["5:5K", "z=5", "x=:label"] {
        assert!(Reference::parse(bad, false).is_err(), "{bad}");
    }
    assert!(Reference::parse("x=2-3", true).is_err());
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig { cases: 300, ..Default::default() })]

    /// No table and no choice of columns or references makes --grammar
    /// panic; what it writes is a valid chart.
    #[test]
    fn no_table_makes_it_panic(
        cells in proptest::collection::vec(
            proptest::prop_oneof![
                proptest::prelude::Just(","), proptest::prelude::Just("\n"),
                proptest::prelude::Just("n/a"), proptest::prelude::Just("2026-03-01"),
                proptest::prelude::Just("\""), proptest::prelude::Just("x (km)"),
                proptest::prelude::Just("1,5"), proptest::prelude::Just("-3e2"),
                proptest::prelude::Just("12%"), proptest::prelude::Just("a"),
                proptest::prelude::Just("{\"a\":1}"), proptest::prelude::Just(";"),
            ],
            0..60,
        ),
        x in proptest::option::of("[1-3]|x|a"),
        ys in proptest::collection::vec("[1-4]|a|km", 0..3),
        refs in proptest::collection::vec("[xy]=(-?[0-9]{1,2}|a|2026-03)(\\.\\.[0-9])?(:[a-z ]{0,3})?", 0..3),
    ) {
        let text = cells.concat();
        let g = GrammarOptions {
            marks: vec![None; ys.len()],
            refs: refs.iter().filter_map(|r| Reference::parse(r, r.contains("..")).ok()).collect(),
        };
        let opts = ParseOptions { label: x, values: ys, ..ParseOptions::default() };
        let mut sink = |_: String| {};
        let mut warn = Warner::new(&mut sink, false);
        let input: Box<dyn BufRead> = Box::new(Cursor::new(text.into_bytes()));
        if let Ok(mut rows) = rows_of(input, &opts, &mut warn)
            && let Ok(e) = build(&mut *rows, &opts, &g, "t.csv", &mut warn)
        {
            let spec = e.get("spec").cloned().unwrap_or_default();
            proptest::prop_assert!(validate_spec(&spec, &Limits::default()).is_ok());
        }
    }
}

#[test]
fn units_come_off_the_header_label() {
    assert_eq!(strip_unit("pace (s/km)", "s/km"), "pace");
    assert_eq!(strip_unit("price [$]", "$"), "price");
}
