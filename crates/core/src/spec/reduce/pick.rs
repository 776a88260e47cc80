//! The points a bucketed reducer keeps at the end: even sampling of the
//! buckets' starts, each range's min and max, or LTTB over the buckets'
//! extremes, always with the first and the last point. What streams in
//! and how the buckets grow is `reduce`'s.

use super::{Bucket, Indexed};

/// `limit` positions spread evenly over 0..n, each answered by the nearest
/// bucket start (exact while buckets are one point wide).
pub(super) fn even(buckets: &[Bucket], n: usize, limit: usize, last: &Indexed) -> Vec<Indexed> {
    let mut out: Vec<Indexed> = Vec::with_capacity(limit);
    let mut j = 0;
    for k in 0..limit {
        let target = if k + 1 == limit {
            n - 1
        } else {
            ((k as f64) * ((n - 1) as f64) / ((limit - 1) as f64)).round() as usize
        };
        if target == n - 1 {
            out.push(last.clone());
            break;
        }
        while j + 1 < buckets.len()
            && buckets[j + 1].start.abs_diff(target) <= buckets[j].start.abs_diff(target)
        {
            j += 1;
        }
        let pick = &buckets[j].head;
        if out.last().is_none_or(|p| p.idx < pick.idx) {
            out.push(pick.clone());
        }
    }
    out
}

/// limit/4 equal ranges of positions, each giving its first, min, max and
/// last point in order (M4, Jugel et al. 2014: a line drawn through them
/// has every range's peak and trough and meets the next range where the
/// data does), so the whole series' first and last point are kept too.
pub(super) fn minmax(
    buckets: &[Bucket],
    n: usize,
    limit: usize,
    first: &Indexed,
    last: &Indexed,
) -> Vec<Indexed> {
    if limit < 4 {
        return vec![first.clone(), last.clone()];
    }
    let ranges = (limit / 4).max(1);
    let mut out: Vec<Indexed> = Vec::with_capacity(limit + 2);
    let mut i = 0;
    for r in 0..ranges {
        let end = ((r + 1) * n).div_ceil(ranges);
        let mut acc: Option<Bucket> = None;
        while i < buckets.len() && buckets[i].start < end {
            acc = Some(match acc {
                None => buckets[i].clone(),
                Some(a) => a.merge(buckets[i].clone()),
            });
            i += 1;
        }
        if let Some(a) = acc {
            for p in a.m4() {
                if out.last().is_none_or(|q| q.idx < p.idx) {
                    out.push(p.clone());
                }
            }
        }
    }
    if out.first().is_none_or(|p| p.idx != first.idx) {
        out.insert(0, first.clone());
    }
    if out.last().is_none_or(|p| p.idx != last.idx) {
        out.push(last.clone());
    }
    out
}

/// Largest-triangle-three-buckets (Steinarsson 2013) over the buckets'
/// extremes: first and last kept, one point per bucket between them.
pub(super) fn lttb(
    buckets: &[Bucket],
    limit: usize,
    first: &Indexed,
    last: &Indexed,
) -> Vec<Indexed> {
    let mut cands: Vec<&Indexed> = Vec::new();
    for b in buckets {
        for p in b.extremes() {
            if p.idx != first.idx && p.idx != last.idx {
                cands.push(p);
            }
        }
    }
    let inner = limit.saturating_sub(2);
    if cands.len() <= inner {
        let mut out = vec![first.clone()];
        out.extend(cands.into_iter().cloned());
        out.push(last.clone());
        return out;
    }
    let xy = |p: &Indexed| (p.idx as f64, p.value);
    let mut out = vec![first.clone()];
    let size = cands.len() as f64 / inner as f64;
    let mut prev = xy(first);
    for k in 0..inner {
        let lo = (k as f64 * size) as usize;
        let hi = (((k + 1) as f64 * size) as usize)
            .min(cands.len())
            .max(lo + 1);
        // Average of the next bucket (or the last point) is the third corner.
        let (nx, ny) = if k + 1 < inner {
            let nlo = hi;
            let nhi = (((k + 2) as f64 * size) as usize)
                .min(cands.len())
                .max(nlo + 1);
            let span = &cands[nlo..nhi.min(cands.len())];
            let c = span.len().max(1) as f64;
            span.iter().fold((0.0, 0.0), |(sx, sy), p| {
                let (x, y) = xy(p);
                (sx + x / c, sy + y / c)
            })
        } else {
            xy(last)
        };
        let mut best = lo;
        let mut best_area = -1.0;
        for (i, p) in cands.iter().enumerate().take(hi).skip(lo) {
            let (x, y) = xy(p);
            let area = ((prev.0 - nx) * (y - prev.1) - (prev.0 - x) * (ny - prev.1)).abs();
            if area > best_area {
                best_area = area;
                best = i;
            }
        }
        prev = xy(cands[best]);
        out.push(cands[best].clone());
    }
    out.push(last.clone());
    out
}
