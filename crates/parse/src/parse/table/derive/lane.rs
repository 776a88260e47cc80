//! Derived columns on the fast lane: when the chart's columns are input
//! columns and `--calculate` columns computed from them (no `--fold`, no
//! `-x @row`), the reader ahead reads the input numbers those need, and
//! its workers compute the calculated ones from them
//! ([`PlainShape::derive`]); the chart takes the numbers as it takes read
//! ones. A computed number is the one the full path writes out and reads
//! back (a float written shortest reads back the same), so the chart is
//! the same. A row that is not plain, or where a calculation has no value,
//! comes back whole and is derived as on the full path: its warnings, and
//! the calculation's count of rows without a value, are the same too.

use std::sync::Arc;

use super::super::super::number::Decimal;
use super::super::super::rows::{DeriveValues, MAX_VALUES, PlainShape};
use super::super::super::transform::Expr;
use super::Derivation;

/// Calculations the fast lane computes at most.
const MAX_STEPS: usize = 16;

/// Where a number the chart takes comes from.
#[derive(Clone, Copy)]
enum Made {
    /// The n-th number read.
    Read(usize),
    /// The n-th calculation's.
    Step(usize),
}

/// The place of input column `col` read with `dec` among `values`, added
/// at its first use; `None` when it is read with another mark already.
fn slot(values: &mut Vec<(usize, Decimal)>, col: usize, dec: Decimal) -> Option<usize> {
    match values.iter().position(|&(c, _)| c == col) {
        Some(i) => (values[i].1 == dec).then_some(i),
        None => {
            values.push((col, dec));
            Some(values.len() - 1)
        }
    }
}

/// What the input reader reads ahead for a chart reading the derived
/// columns by `outer`; `None` when the fast lane cannot compute them.
pub(super) fn inner_shape(d: &Derivation, outer: &PlainShape) -> Option<PlainShape> {
    let width = d.width;
    let input = |c: &Option<usize>| c.is_none_or(|c| c < width);
    if d.fold.is_some() || d.row || !d.post.is_empty() || d.pre.len() > MAX_STEPS {
        return None;
    }
    if outer.derive.is_some() || !input(&outer.label) || !input(&outer.key.as_ref().map(|k| k.0)) {
        return None;
    }
    let mut values = Vec::new();
    let mut made = Vec::new();
    for &(col, dec) in &outer.values {
        made.push(match col.checked_sub(width) {
            None => Made::Read(slot(&mut values, col, dec)?),
            Some(k) => Made::Step(k),
        });
    }
    let mut operand: Vec<Option<usize>> = vec![None; width];
    for s in &d.pre {
        for p in s.calc.expr.places() {
            if p < width {
                operand[p] = Some(slot(&mut values, p, d.decimals[p])?);
            }
        }
    }
    if values.len() > MAX_VALUES || made.len() > MAX_VALUES {
        return None;
    }
    let steps: Vec<Expr> = d.pre.iter().map(|s| s.calc.expr.clone()).collect();
    let compute = move |read: &[f64], out: &mut [f64]| -> bool {
        let mut done = [0.0; MAX_STEPS];
        for (k, e) in steps.iter().enumerate() {
            let get = |p: usize| match p.checked_sub(width) {
                None => Some(read[operand[p]?]),
                Some(j) => done[..k].get(j).copied(),
            };
            match e.eval(&get) {
                Some(v) => done[k] = v,
                None => return false,
            }
        }
        for (o, m) in out.iter_mut().zip(&made) {
            *o = match *m {
                Made::Read(i) => read[i],
                Made::Step(k) => done[k],
            };
        }
        true
    };
    Some(PlainShape {
        values,
        label: outer.label,
        // Input rows of another width than its header's are derived on
        // the full path, which names them.
        max_width: d.check.map(|(w, _)| w),
        // Values compared with a floor are the computed ones: the chart's
        // side drops them.
        floor: None,
        key: outer.key.clone(),
        derive: Some(DeriveValues {
            width: outer.values.len(),
            compute: Arc::new(compute),
        }),
    })
}
