//! Point limits in bounded memory. A [`Reducer`] takes points one at a time
//! and keeps O(limit) of them (a fixed-size working set, never the input),
//! so a million-row file charts in the same memory as a twenty-row one.
//!
//! Up to [`EXACT_WINDOW`] points the sampling is exact; beyond that the
//! even, min/max and LTTB reducers work on a bucketed summary whose bucket
//! width doubles as the input grows, which moves a sampled point by at most
//! half a bucket (under 1/4000 of the x range).
//!
//! Labels come in borrowed ([`Reducer::push_value`]) and are copied only
//! for a point that may be kept, so the rows a reducer drops cost no
//! allocation (a million-row `viz-parse` went from 0.22 s to 0.07 s).

use std::cmp::Ordering;
use std::collections::{BinaryHeap, VecDeque};

use super::{Point, Reduction};

mod pick;
mod xorder;
use pick::{even, lttb, minmax};
use xorder::{XBuckets, XWatch};
pub use xorder::{XNotes, XOf};

/// How many input positions the bucketed reducers resolve exactly.
pub const EXACT_WINDOW: usize = 4096;

/// A point kept, with its place in the input: its label and value only
/// (a [`Point`]'s x, x2 and count are not a reducer's), so the working
/// set stays as small as it was before points had them.
#[derive(Debug, Clone)]
struct Indexed {
    idx: usize,
    label: String,
    value: f64,
}

impl Indexed {
    fn new(idx: usize, value: f64, label: &str) -> Indexed {
        Indexed {
            idx,
            label: label.to_string(),
            value,
        }
    }

    /// Overwrites in place, reusing the label's allocation.
    fn set(&mut self, idx: usize, value: f64, label: &str) {
        self.idx = idx;
        self.value = value;
        self.label.clear();
        self.label.push_str(label);
    }

    fn into_point(self) -> Point {
        Point::new(self.label, self.value)
    }
}

/// Orders by |value| ascending, then later index first, so the heap's top is
/// the weakest point: smallest magnitude, and of equals the latest (earlier
/// points win ties, as a reader scanning the input would expect).
#[derive(Debug, Clone)]
struct ByMagnitude(Indexed);

impl PartialEq for ByMagnitude {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}
impl Eq for ByMagnitude {}
impl PartialOrd for ByMagnitude {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for ByMagnitude {
    fn cmp(&self, other: &Self) -> Ordering {
        // Reversed so BinaryHeap (a max-heap) pops the weakest first.
        other
            .0
            .value
            .abs()
            .total_cmp(&self.0.value.abs())
            .then(self.0.idx.cmp(&other.0.idx))
    }
}

/// A bucket of consecutive input positions: its extremes, in input order.
#[derive(Debug, Clone)]
struct Bucket {
    start: usize,
    /// The point at `start`, which even sampling wants.
    head: Indexed,
    min: Indexed,
    max: Indexed,
    /// The bucket's latest point: with `head`, `min` and `max` the four a
    /// line through the bucket needs (M4: no peak lost, no aliasing).
    tail: Indexed,
}

impl Bucket {
    /// A placeholder that allocates nothing, written over at once.
    fn empty() -> Bucket {
        let none = || Indexed {
            idx: 0,
            label: String::new(),
            value: 0.0,
        };
        Bucket {
            start: 0,
            head: none(),
            min: none(),
            max: none(),
            tail: none(),
        }
    }

    fn new(p: Indexed) -> Bucket {
        Bucket {
            start: p.idx,
            head: p.clone(),
            min: p.clone(),
            max: p.clone(),
            tail: p,
        }
    }

    /// Looks at the value first: the label is copied only for a new extreme.
    fn add(&mut self, idx: usize, value: f64, label: &str) {
        if value < self.min.value {
            self.min.set(idx, value, label);
        } else if value > self.max.value {
            self.max.set(idx, value, label);
        }
        self.tail.set(idx, value, label);
    }

    fn merge(mut self, other: Bucket) -> Bucket {
        if other.min.value < self.min.value {
            self.min = other.min;
        }
        if other.max.value > self.max.value {
            self.max = other.max;
        }
        self.tail = other.tail;
        self
    }

    /// Its distinct extremes in input order (no allocation: this is
    /// asked of every bucket).
    fn extremes(&self) -> impl Iterator<Item = &Indexed> {
        let (a, b) = if self.min.idx <= self.max.idx {
            (&self.min, &self.max)
        } else {
            (&self.max, &self.min)
        };
        std::iter::once(a).chain((a.idx != b.idx).then_some(b))
    }

    /// Its first, min, max and last point, distinct and in input order.
    fn m4(&self) -> Vec<&Indexed> {
        let mut v: Vec<&Indexed> = self.extremes().collect();
        v.insert(0, &self.head);
        v.push(&self.tail);
        v.sort_by_key(|p| p.idx);
        v.dedup_by_key(|p| p.idx);
        v
    }
}

// One reducer per series, built once: the size difference costs nothing.
#[allow(clippy::large_enum_variant)]
#[derive(Debug)]
enum State {
    Top(BinaryHeap<ByMagnitude>),
    First(Vec<Indexed>),
    Last(VecDeque<Indexed>),
    /// For even, minmax and lttb.
    Buckets(Buckets),
    /// The same, by x value: rows out of x order (see `xorder`).
    X(XBuckets),
}

/// Buckets of `width` positions: the working set of even, minmax and lttb.
#[derive(Debug)]
struct Buckets {
    /// 1, doubled each time the buckets fill up: always a power of two.
    width: usize,
    /// Track each bucket's min and max (minmax, lttb; even needs only
    /// each bucket's first point).
    extremes: bool,
    done: Vec<Bucket>,
    open: Option<Bucket>,
    first: Option<Indexed>,
    last: Option<Indexed>,
}

/// Streams points in, keeps at most `limit` of them out.
#[derive(Debug)]
pub struct Reducer {
    limit: usize,
    method: Reduction,
    seen: usize,
    state: State,
    /// Set by [`Reducer::with_x`]: the labels' x and their order.
    x: Option<XWatch>,
}

impl Reducer {
    /// `limit` is clamped to at least 2 (a line needs two ends).
    pub fn new(limit: usize, method: Reduction) -> Reducer {
        let limit = limit.max(2);
        let state = match method {
            Reduction::Top => State::Top(BinaryHeap::with_capacity(limit + 1)),
            Reduction::First => State::First(Vec::with_capacity(limit.min(1024))),
            Reduction::Last => State::Last(VecDeque::with_capacity(limit.min(1024) + 1)),
            Reduction::Even | Reduction::Minmax | Reduction::Lttb => State::Buckets(Buckets {
                width: 1,
                extremes: method != Reduction::Even,
                done: Vec::new(),
                open: None,
                first: None,
                last: None,
            }),
        };
        Reducer {
            limit,
            method,
            seen: 0,
            state,
            x: None,
        }
    }

    pub fn method(&self) -> Reduction {
        self.method
    }

    /// How many points went in.
    pub fn seen(&self) -> usize {
        self.seen
    }

    pub fn push(&mut self, point: Point) {
        self.push_value(point.value, &point.label);
    }

    /// Like [`Reducer::push`], but the label is borrowed and copied only
    /// when the point may be kept, so the rows a reducer drops cost no
    /// allocation: the streaming path of `viz-parse`.
    pub fn push_value(&mut self, value: f64, label: &str) {
        let idx = self.seen;
        self.seen += 1;
        if self.drops(value) {
            return;
        }
        let limit = self.limit;
        match &mut self.state {
            State::Top(heap) => {
                heap.push(ByMagnitude(Indexed::new(idx, value, label)));
                if heap.len() > limit {
                    heap.pop();
                }
            }
            State::First(v) => {
                if v.len() < limit {
                    v.push(Indexed::new(idx, value, label));
                }
            }
            State::Last(q) => push_last(q, limit, idx, value, label),
            State::Buckets(b) => match &mut self.x {
                None => b.push(idx, value, label),
                Some(w) => {
                    b.ends(idx, value, label);
                    b.bucket(idx, value, label);
                    if b.done.len() >= EXACT_WINDOW {
                        if w.check(b) {
                            self.state = State::X(w.switch(b));
                        } else {
                            b.halve();
                        }
                    }
                }
            },
            State::X(xb) => {
                if let Some(w) = &mut self.x {
                    w.point(xb, idx, value, label);
                }
            }
        }
    }

    /// Whether [`Reducer::push_value`] would drop a point of this value at
    /// once, whatever its label: in a full top-N, one no stronger than the
    /// weakest kept (ties go to the earlier point). The caller then need
    /// not find its label, and counts it with [`Reducer::skip`].
    pub fn drops(&self, value: f64) -> bool {
        match &self.state {
            State::Top(heap) => {
                heap.len() >= self.limit
                    && heap.peek().is_some_and(|weakest| {
                        value.abs().total_cmp(&weakest.0.value.abs()) != Ordering::Greater
                    })
            }
            _ => false,
        }
    }

    /// Counts a point [`Reducer::drops`] said is dropped.
    pub fn skip(&mut self) {
        self.seen += 1;
    }

    /// Counts `n` points [`Reducer::drops`] said are dropped.
    pub fn skip_many(&mut self, n: usize) {
        self.seen += n;
    }

    /// In a full top-N, the magnitude at or below which [`Reducer::drops`]
    /// drops a value. It only rises as points come in, so a value at or
    /// below it now is dropped by any later state too: readers ahead of
    /// the reducer may drop such values themselves.
    pub fn floor(&self) -> Option<f64> {
        match &self.state {
            State::Top(heap) if heap.len() >= self.limit => {
                heap.peek().map(|weakest| weakest.0.value.abs())
            }
            _ => None,
        }
    }

    /// The kept points in input order (in x order after a step back in
    /// x, see [`Reducer::with_x`]), and whether any were dropped.
    pub fn finish(mut self) -> (Vec<Point>, bool) {
        self.settle_x();
        let truncated = self.seen > self.limit;
        let limit = self.limit;
        let points = match self.state {
            State::Top(heap) => {
                let mut v: Vec<Indexed> = heap.into_iter().map(|b| b.0).collect();
                v.sort_by_key(|p| p.idx);
                strip(v)
            }
            State::First(v) => strip(v),
            State::Last(q) => strip(q.into_iter().collect()),
            State::X(xb) => Reducer::finish_x(xb, limit, self.method),
            State::Buckets(Buckets {
                done,
                open,
                first,
                last,
                ..
            }) => {
                let mut buckets = done;
                buckets.extend(open);
                let (Some(first), Some(last)) = (first, last) else {
                    return (Vec::new(), false);
                };
                let n = self.seen;
                if n <= limit {
                    // Width is still 1: every bucket is one point.
                    return (
                        buckets.into_iter().map(|b| b.head.into_point()).collect(),
                        false,
                    );
                }
                match self.method {
                    Reduction::Even => strip(even(&buckets, n, limit, &last)),
                    Reduction::Minmax => strip(minmax(&buckets, n, limit, &first, &last)),
                    _ => strip(lttb(&buckets, limit, &first, &last)),
                }
            }
        };
        (points, truncated)
    }
}

/// Keeps the latest `limit` points: a full queue reuses its oldest
/// point's allocation for the new one.
#[inline]
fn push_last(q: &mut VecDeque<Indexed>, limit: usize, idx: usize, value: f64, label: &str) {
    if q.len() >= limit
        && let Some(mut oldest) = q.pop_front()
    {
        oldest.set(idx, value, label);
        q.push_back(oldest);
    } else {
        q.push_back(Indexed::new(idx, value, label));
    }
}

impl Buckets {
    /// One point at position `idx`: the ends, then its bucket, then half
    /// the resolution when the buckets fill up.
    #[inline(always)]
    fn push(&mut self, idx: usize, value: f64, label: &str) {
        self.ends(idx, value, label);
        self.bucket(idx, value, label);
        if self.done.len() >= EXACT_WINDOW {
            self.halve();
        }
    }

    /// The first point, once, and the latest.
    #[inline(always)]
    fn ends(&mut self, idx: usize, value: f64, label: &str) {
        if self.first.is_none() {
            self.first = Some(Indexed::new(idx, value, label));
        }
        match &mut self.last {
            Some(l) => l.set(idx, value, label),
            None => self.last = Some(Indexed::new(idx, value, label)),
        }
    }

    /// Into the open bucket, or a new one where a bucket starts.
    #[inline(always)]
    fn bucket(&mut self, idx: usize, value: f64, label: &str) {
        // The width is a power of two: a mask, not a division per point.
        let starts_new = idx & (self.width - 1) == 0;
        match &mut self.open {
            Some(b) if !starts_new => {
                if self.extremes {
                    b.add(idx, value, label);
                }
            }
            open => {
                if let Some(b) = open.take() {
                    self.done.push(b);
                }
                *open = Some(Bucket::new(Indexed::new(idx, value, label)));
            }
        }
    }

    /// Halves the resolution: twice the width, neighbours merged pairwise.
    #[inline]
    fn halve(&mut self) {
        self.width *= 2;
        // In place: bucket i becomes 2i merged with 2i + 1 (each taken
        // before it is written over), so no second vector of buckets is
        // held beside the first (a quarter of a 1M-row line's heap).
        let n = self.done.len();
        for i in 0..n / 2 {
            let a = std::mem::replace(&mut self.done[2 * i], Bucket::empty());
            let b = std::mem::replace(&mut self.done[2 * i + 1], Bucket::empty());
            self.done[i] = a.merge(b);
        }
        if n % 2 == 1 {
            self.done.swap(n / 2, n - 1);
        }
        self.done.truncate(n.div_ceil(2));
        // The open bucket may now belong with the last done one.
        if let (Some(o), Some(d)) = (self.open.as_ref(), self.done.last())
            && o.start / self.width == d.start / self.width
        {
            let o = self.open.take().expect("checked above");
            let d = self.done.pop().expect("checked above");
            self.open = Some(d.merge(o));
        }
    }
}

fn strip(v: Vec<Indexed>) -> Vec<Point> {
    v.into_iter().map(Indexed::into_point).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pts(values: &[f64]) -> Vec<Point> {
        values
            .iter()
            .enumerate()
            .map(|(i, v)| Point {
                label: i.to_string(),
                value: *v,
                x: None,
                x2: None,
                count: None,
            })
            .collect()
    }

    fn run(method: Reduction, limit: usize, values: &[f64]) -> (Vec<Point>, bool) {
        let mut r = Reducer::new(limit, method);
        for p in pts(values) {
            r.push(p);
        }
        r.finish()
    }

    fn labels(v: &[Point]) -> Vec<usize> {
        v.iter().map(|p| p.label.parse().unwrap()).collect()
    }

    #[test]
    fn under_the_limit_everything_is_kept() {
        for m in [
            Reduction::Top,
            Reduction::First,
            Reduction::Last,
            Reduction::Even,
            Reduction::Minmax,
            Reduction::Lttb,
        ] {
            let (v, t) = run(m, 5, &[3.0, -1.0, 2.0]);
            assert_eq!(labels(&v), vec![0, 1, 2], "{m:?}");
            assert!(!t);
        }
    }

    #[test]
    fn top_keeps_largest_magnitudes_in_input_order() {
        let (v, t) = run(Reduction::Top, 3, &[1.0, -9.0, 2.0, 8.0, 0.5, 7.0]);
        assert_eq!(labels(&v), vec![1, 3, 5]);
        assert!(t);
    }

    #[test]
    fn top_ties_go_to_the_earlier_point() {
        let (v, _) = run(Reduction::Top, 2, &[5.0, -5.0, 5.0, 1.0, 5.0]);
        assert_eq!(labels(&v), vec![0, 1]);
    }

    #[test]
    fn borrowed_labels_are_kept_only_for_kept_points() {
        let mut r = Reducer::new(3, Reduction::Last);
        for i in 0..10 {
            r.push_value(i as f64, &format!("row {i}"));
        }
        let (v, t) = r.finish();
        let got: Vec<&str> = v.iter().map(|p| p.label.as_str()).collect();
        assert_eq!(got, ["row 7", "row 8", "row 9"]);
        assert!(t);
    }

    #[test]
    fn first_and_last() {
        let vals: Vec<f64> = (0..10).map(f64::from).collect();
        assert_eq!(labels(&run(Reduction::First, 3, &vals).0), vec![0, 1, 2]);
        assert_eq!(labels(&run(Reduction::Last, 3, &vals).0), vec![7, 8, 9]);
    }

    #[test]
    fn even_is_exact_and_keeps_both_ends() {
        let vals: Vec<f64> = (0..100).map(f64::from).collect();
        let (v, t) = run(Reduction::Even, 10, &vals);
        assert!(t);
        assert_eq!(labels(&v), vec![0, 11, 22, 33, 44, 55, 66, 77, 88, 99]);
    }

    #[test]
    fn even_on_a_huge_input_stays_bounded_and_spread() {
        let n = 1_000_003;
        let mut r = Reducer::new(30, Reduction::Even);
        for i in 0..n {
            r.push(Point {
                label: i.to_string(),
                value: i as f64,
                x: None,
                x2: None,
                count: None,
            });
        }
        let (v, _) = r.finish();
        let idx = labels(&v);
        assert_eq!(idx.len(), 30);
        assert_eq!(idx[0], 0);
        assert_eq!(*idx.last().unwrap(), n - 1);
        let step = (n - 1) as f64 / 29.0;
        for (k, i) in idx.iter().enumerate() {
            let want = k as f64 * step;
            assert!(
                (*i as f64 - want).abs() < n as f64 / 2000.0,
                "{k}: {i} vs {want}"
            );
        }
    }

    #[test]
    fn minmax_keeps_the_first_and_the_last_point() {
        for n in [10usize, 5_000, 100_000] {
            let vals: Vec<f64> = (0..n).map(|i| ((i * 7919) % 101) as f64).collect();
            for limit in [2, 3, 4, 5, 30, 200] {
                let (v, _) = run(Reduction::Minmax, limit, &vals);
                let idx = labels(&v);
                assert!(v.len() <= limit, "{n} {limit}: {}", v.len());
                assert_eq!(idx[0], 0, "{n} {limit}");
                assert_eq!(*idx.last().unwrap(), n - 1, "{n} {limit}");
            }
        }
    }

    #[test]
    fn a_single_spike_survives_minmax_and_lttb_but_not_even() {
        let n = 1_000_000;
        let spike = 654_321;
        for m in [Reduction::Minmax, Reduction::Lttb] {
            let mut r = Reducer::new(30, m);
            for i in 0..n {
                r.push(Point {
                    label: i.to_string(),
                    value: if i == spike { 1000.0 } else { (i % 7) as f64 },
                    x: None,
                    x2: None,
                    count: None,
                });
            }
            let (v, _) = r.finish();
            assert!(v.len() <= 30, "{m:?}: {}", v.len());
            assert!(v.iter().any(|p| p.value == 1000.0), "{m:?} lost the spike");
        }
    }
}
