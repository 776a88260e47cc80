//! Reducing a line whose x is a value (dates, numbers) that the rows do not
//! give in order. The positional reducers bucket by file position, so on a
//! shuffled series, or rows sorted by a category (each place's dates in
//! turn), a bucket's min and max are of x values far apart and the kept
//! points are not what downsampling the x-sorted series gives.
//!
//! A reducer given the way to read its labels' x ([`XOf`]) stays positional
//! (no label is read per row: in-order files cost what they did) and checks
//! the x order of each bucket's points as its buckets fill. The first step
//! back in x switches it to [`XBuckets`]: the points so far (exact up to the
//! window, else the positional buckets' heads and extremes) and every later
//! row are bucketed by x value on a grid whose width doubles when more than
//! [`EXACT_WINDOW`] buckets are occupied, so memory stays bounded whatever
//! the input. At the end the buckets' points, in x order, go through the
//! chosen positional reduction: exactly the sorted series' reduction up to
//! the window, and beyond it the same reduction over x-buckets' lowest,
//! highest, min and max points (what the positional reducers keep per
//! bucket), so the first and last x and each x range's extremes are kept.

use std::collections::HashMap;
use std::fmt;

use super::{Buckets, EXACT_WINDOW, Indexed, Reducer, State};
use crate::spec::Reduction;

/// Reads a label's x value (a date's instant, a number); `None` when the
/// label is no such value.
pub type XOf = Box<dyn Fn(&str) -> Option<f64> + Send + Sync>;

/// What a reducer saw of its labels' x that its kept points may not show.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct XNotes {
    /// The first step back in x: the label before, and the one after.
    pub unsorted: Option<(String, String)>,
    /// A label whose x another row has too.
    pub repeat: Option<String>,
    /// Rows whose label is no x, after the switch (they are left out),
    /// and the first of them.
    pub no_x: usize,
    pub no_x_example: Option<String>,
}

/// The x reader and the order watch of a positional reducer.
pub(super) struct XWatch {
    pub(super) x_of: XOf,
    /// Points before this input position were followed.
    next: usize,
    last: Option<f64>,
    last_label: String,
    pub(super) notes: XNotes,
}

impl fmt::Debug for XWatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("XWatch")
            .field("next", &self.next)
            .field("notes", &self.notes)
            .finish()
    }
}

impl XWatch {
    pub(super) fn new(x_of: XOf) -> XWatch {
        XWatch {
            x_of,
            next: 0,
            last: None,
            last_label: String::new(),
            notes: XNotes::default(),
        }
    }

    /// Follows the buckets' points not yet followed, in file order; true
    /// at the first step back in x.
    pub(super) fn check(&mut self, b: &Buckets) -> bool {
        let mut step = false;
        for bucket in b.done.iter().chain(b.open.as_ref()) {
            // Its head and extremes in file order, on the stack: this
            // runs for every bucket at every halving.
            let mut ps: [Option<&Indexed>; 3] = [Some(&bucket.head), None, None];
            for (slot, p) in ps[1..].iter_mut().zip(bucket.extremes()) {
                *slot = Some(p);
            }
            ps.sort_by_key(|p| p.map_or(usize::MAX, |p| p.idx));
            for p in ps.into_iter().flatten() {
                if p.idx >= self.next && !step {
                    self.next = p.idx + 1;
                    step = self.steps_back(p);
                }
            }
            if step {
                return true;
            }
        }
        if let Some(l) = b.last.as_ref().filter(|l| l.idx >= self.next) {
            self.next = l.idx + 1;
            return self.steps_back(l);
        }
        false
    }

    /// The positional buckets' points (heads, extremes, the ends) into
    /// x buckets.
    pub(super) fn switch(&mut self, b: &mut Buckets) -> XBuckets {
        let mut ps: Vec<&Indexed> = Vec::new();
        for bucket in b.done.iter().chain(b.open.as_ref()) {
            ps.push(&bucket.head);
            ps.extend(bucket.extremes());
        }
        ps.extend(b.first.as_ref());
        ps.extend(b.last.as_ref());
        ps.sort_by_key(|p| p.idx);
        ps.dedup_by_key(|p| p.idx);
        let mut xb = XBuckets::new();
        for p in ps {
            self.point(&mut xb, p.idx, p.value, &p.label);
        }
        xb
    }

    /// One point into x buckets, or counted as having no x.
    pub(super) fn point(&mut self, xb: &mut XBuckets, idx: usize, value: f64, label: &str) {
        match (self.x_of)(label).filter(|x| x.is_finite()) {
            Some(x) => xb.push(idx, x, value, label, &mut self.notes),
            None => {
                self.notes.no_x += 1;
                if self.notes.no_x_example.is_none() {
                    self.notes.no_x_example = Some(label.to_string());
                }
            }
        }
    }

    /// Follows one more point in file order; true at the first step back.
    pub(super) fn steps_back(&mut self, p: &Indexed) -> bool {
        let Some(x) = (self.x_of)(&p.label).filter(|x| x.is_finite()) else {
            return false;
        };
        if let Some(last) = self.last {
            if x < last {
                self.notes.unsorted = Some((self.last_label.clone(), p.label.clone()));
                return true;
            }
            if x == last && self.notes.repeat.is_none() {
                self.notes.repeat = Some(p.label.clone());
            }
        }
        self.last = Some(x);
        self.last_label.clear();
        self.last_label.push_str(&p.label);
        false
    }
}

/// The points of one stretch of x.
#[derive(Debug, Clone)]
struct XBucket {
    /// Lowest x (of equals, the earliest row) and highest x (the latest).
    lo: XPoint,
    hi: XPoint,
    min: XPoint,
    max: XPoint,
}

impl XBucket {
    fn new(p: XPoint) -> XBucket {
        XBucket {
            lo: p.clone(),
            hi: p.clone(),
            min: p.clone(),
            max: p,
        }
    }

    fn add(&mut self, idx: usize, x: f64, value: f64, label: &str) {
        if x < x_of(&self.lo) {
            set(&mut self.lo, idx, x, value, label);
        } else if x >= x_of(&self.hi) {
            set(&mut self.hi, idx, x, value, label);
        }
        if value < self.min.p.value {
            set(&mut self.min, idx, x, value, label);
        } else if value > self.max.p.value {
            set(&mut self.max, idx, x, value, label);
        }
    }

    fn merge(mut self, o: XBucket) -> XBucket {
        if x_of(&o.lo) < x_of(&self.lo) {
            self.lo = o.lo;
        }
        if x_of(&o.hi) >= x_of(&self.hi) {
            self.hi = o.hi;
        }
        if o.min.p.value < self.min.p.value {
            self.min = o.min;
        }
        if o.max.p.value > self.max.p.value {
            self.max = o.max;
        }
        self
    }
}

/// A point kept in x buckets: a reducer's point with its x.
#[derive(Debug, Clone)]
struct XPoint {
    p: Indexed,
    x: f64,
}

impl XPoint {
    fn new(idx: usize, x: f64, value: f64, label: &str) -> XPoint {
        XPoint {
            p: Indexed::new(idx, value, label),
            x,
        }
    }
}

fn x_of(p: &XPoint) -> f64 {
    p.x
}

/// Overwrites in place, reusing the label's allocation.
fn set(p: &mut XPoint, idx: usize, x: f64, value: f64, label: &str) {
    p.p.set(idx, value, label);
    p.x = x;
}

/// Points bucketed by x value: exact up to [`EXACT_WINDOW`] points, then on
/// a grid of power-of-two widths.
#[derive(Debug)]
pub(super) struct XBuckets {
    exact: Vec<XPoint>,
    /// Bucket width 2^shift, in x units.
    shift: i32,
    grid: HashMap<i64, XBucket>,
}

/// Keys this far from 0 are past i64's exact range in f64.
const KEY_RANGE: f64 = 4.0e18;

impl XBuckets {
    pub(super) fn new() -> XBuckets {
        XBuckets {
            exact: Vec::new(),
            shift: 0,
            grid: HashMap::new(),
        }
    }

    /// One point with its x.
    pub(super) fn push(&mut self, idx: usize, x: f64, value: f64, label: &str, notes: &mut XNotes) {
        if self.grid.is_empty() {
            let p = XPoint::new(idx, x, value, label);
            self.exact.push(p);
            if self.exact.len() > EXACT_WINDOW {
                self.onto_grid(notes);
            }
            return;
        }
        let k = self.key(x);
        match self.grid.get_mut(&k) {
            Some(b) => {
                if (x == x_of(&b.lo) || x == x_of(&b.hi)) && notes.repeat.is_none() {
                    notes.repeat = Some(label.to_string());
                }
                b.add(idx, x, value, label);
            }
            None => {
                let p = XPoint::new(idx, x, value, label);
                self.grid.insert(k, XBucket::new(p));
                if self.grid.len() > EXACT_WINDOW {
                    self.coarsen();
                }
            }
        }
    }

    /// The exact points onto a grid of about a quarter of the window's
    /// buckets over their x range.
    fn onto_grid(&mut self, notes: &mut XNotes) {
        let (lo, hi) = self
            .exact
            .iter()
            .map(x_of)
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), x| {
                (a.min(x), b.max(x))
            });
        let width = ((hi - lo) / (EXACT_WINDOW / 4) as f64).max(f64::MIN_POSITIVE);
        self.shift = width.log2().ceil().clamp(-1000.0, 1000.0) as i32;
        let exact = std::mem::take(&mut self.exact);
        Self::repeat_in(&exact, notes);
        for p in exact {
            let x = x_of(&p);
            let k = self.key(x);
            match self.grid.remove(&k) {
                Some(b) => self.grid.insert(k, b.merge(XBucket::new(p))),
                None => self.grid.insert(k, XBucket::new(p)),
            };
        }
        while self.grid.len() > EXACT_WINDOW {
            self.coarsen();
        }
    }

    /// Notes an x that two of the exact points share (the grid notes
    /// its own as points come).
    pub(super) fn exact_repeat(&self, notes: &mut XNotes) {
        if self.grid.is_empty() {
            Self::repeat_in(&self.exact, notes);
        }
    }

    /// Notes an x that two of these points share.
    fn repeat_in(exact: &[XPoint], notes: &mut XNotes) {
        if notes.repeat.is_some() {
            return;
        }
        let mut xs: Vec<(f64, usize)> = exact.iter().map(|p| (x_of(p), p.p.idx)).collect();
        xs.sort_by(|a, b| a.0.total_cmp(&b.0));
        if let Some(w) = xs.windows(2).find(|w| w[0].0 == w[1].0)
            && let Some(p) = exact.iter().find(|p| p.p.idx == w[1].1)
        {
            notes.repeat = Some(p.p.label.clone());
        }
    }

    /// The bucket of `x`, the grid made coarser while `x` is too far out.
    fn key(&mut self, x: f64) -> i64 {
        loop {
            let k = (x / 2f64.powi(self.shift)).floor();
            if k.abs() < KEY_RANGE {
                return k as i64;
            }
            self.coarsen();
        }
    }

    /// Twice the width: neighbouring buckets merged.
    fn coarsen(&mut self) {
        self.shift += 1;
        let old = std::mem::take(&mut self.grid);
        for (k, b) in old {
            let k = k.div_euclid(2);
            let b = match self.grid.remove(&k) {
                Some(a) => a.merge(b),
                None => b,
            };
            self.grid.insert(k, b);
        }
    }

    /// The points to reduce, in x order (of equals, file order).
    fn candidates(mut self, method: Reduction) -> Vec<XPoint> {
        let by_x = |a: &XPoint, b: &XPoint| x_of(a).total_cmp(&x_of(b)).then(a.p.idx.cmp(&b.p.idx));
        if self.grid.is_empty() {
            self.exact.sort_by(by_x);
            return self.exact;
        }
        let mut buckets: Vec<(i64, XBucket)> = self.grid.into_iter().collect();
        buckets.sort_by_key(|(k, _)| *k);
        let n = buckets.len();
        let mut out = Vec::with_capacity(n * 4);
        for (i, (_, b)) in buckets.into_iter().enumerate() {
            let mut ps = if method == Reduction::Even {
                let mut v = vec![b.lo];
                if i + 1 == n {
                    v.push(b.hi);
                }
                v
            } else {
                vec![b.lo, b.min, b.max, b.hi]
            };
            ps.sort_by(by_x);
            ps.dedup_by_key(|p| p.p.idx);
            out.extend(ps);
        }
        out
    }
}

impl Reducer {
    /// Reads each label's x with `x_of` to keep the reduction faithful to x
    /// order when the rows are not in it (even, minmax and lttb; the others
    /// keep rows by file position or magnitude, as they say).
    pub fn with_x(mut self, x_of: XOf) -> Reducer {
        if matches!(
            self.method,
            Reduction::Even | Reduction::Minmax | Reduction::Lttb
        ) {
            self.x = Some(XWatch::new(x_of));
        }
        self
    }

    /// Checks the x order of the points not yet checked (switching to
    /// x buckets at a step back when points are to be dropped), and
    /// says what was seen of x beyond the kept points (empty without
    /// [`Reducer::with_x`]).
    pub fn settle_x(&mut self) -> XNotes {
        let Some(w) = self.x.as_mut() else {
            return XNotes::default();
        };
        if let State::Buckets(b) = &mut self.state
            && w.check(b)
            && self.seen > self.limit
        {
            self.state = State::X(w.switch(b));
        }
        if let State::X(xb) = &self.state {
            xb.exact_repeat(&mut w.notes);
        }
        w.notes.clone()
    }

    /// The kept points of x-bucketed points: the positional reduction of
    /// their candidates in x order.
    pub(super) fn finish_x(
        xb: XBuckets,
        limit: usize,
        method: Reduction,
    ) -> Vec<crate::spec::Point> {
        let mut r = Reducer::new(limit, method);
        for p in xb.candidates(method) {
            r.push_value(p.p.value, &p.p.label);
        }
        r.finish().0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn number(l: &str) -> Option<f64> {
        l.parse().ok()
    }

    /// 50k shuffled x over a wide range, negatives and a far outlier:
    /// bounded buckets, the ends kept, in x order.
    #[test]
    fn shuffled_numbers_are_reduced_in_x_order_in_bounded_buckets() {
        let n = 50_000i64;
        let mut r = Reducer::new(40, Reduction::Minmax).with_x(Box::new(number));
        for k in 0..n {
            let i = (k * 7_919 + 3) % n;
            let x = if i == n - 1 {
                1e300
            } else {
                (i - 20_000) as f64
            };
            r.push_value((i % 97) as f64, &x.to_string());
        }
        if let State::X(xb) = &r.state {
            assert!(xb.grid.len() <= EXACT_WINDOW);
        } else {
            panic!("not switched to x buckets");
        }
        let notes = r.settle_x();
        assert!(
            notes.unsorted.is_some() && notes.repeat.is_none(),
            "{notes:?}"
        );
        let (pts, truncated) = r.finish();
        assert!(truncated && pts.len() <= 40);
        let xs: Vec<f64> = pts.iter().map(|p| number(&p.label).unwrap()).collect();
        assert_eq!(xs[0], -20_000.0);
        assert_eq!(xs[xs.len() - 1], 1e300);
        assert!(xs.windows(2).all(|w| w[0] < w[1]), "{xs:?}");
    }

    /// Rows in x order stay positional: no label is read per row.
    #[test]
    fn rows_in_order_stay_positional() {
        let mut r = Reducer::new(40, Reduction::Minmax).with_x(Box::new(number));
        for i in 0..50_000 {
            r.push_value(f64::from(i % 97), &i.to_string());
        }
        assert!(matches!(r.state, State::Buckets(_)));
        assert_eq!(r.settle_x(), XNotes::default());
    }
}
