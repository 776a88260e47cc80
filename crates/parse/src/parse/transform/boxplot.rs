//! The values of `--chart box`, kept per group (the label, -x) in order
//! of their first row until the end, when each group's box is computed
//! (`spec::boxplot`). Quartiles need every value, so memory follows the
//! rows here: at most [`MAX_KEPT`] values over all groups (8 bytes each),
//! and at most `--max-groups` groups (a row each in the terminal).

use std::collections::HashMap;

use super::aggregate::{Fnv, MAX_KEPT, Overflow};
use crate::spec::boxplot::BoxStats;

/// Groups a box plot keeps when `--max-groups` is not given.
pub const DEFAULT_BOX_GROUPS: usize = 100;

/// The values of each group, in order of the groups' first rows.
#[derive(Debug)]
pub(crate) struct BoxGroups {
    max: usize,
    at: HashMap<String, usize, std::hash::BuildHasherDefault<Fnv>>,
    groups: Vec<(String, Vec<f64>)>,
    kept: usize,
}

impl BoxGroups {
    pub(crate) fn new(max: usize) -> BoxGroups {
        BoxGroups {
            max,
            at: HashMap::default(),
            groups: Vec::new(),
            kept: 0,
        }
    }

    /// Adds a value to its group (made at its first row).
    pub(crate) fn push(&mut self, group: &str, v: f64) -> Result<(), Overflow> {
        if !v.is_finite() {
            return Ok(());
        }
        let g = match self.at.get(group) {
            Some(&g) => g,
            None => {
                if self.groups.len() >= self.max {
                    return Err(Overflow::Groups(self.max));
                }
                self.at.insert(group.to_string(), self.groups.len());
                self.groups.push((group.to_string(), Vec::new()));
                self.groups.len() - 1
            }
        };
        self.kept += 1;
        if self.kept > MAX_KEPT {
            return Err(Overflow::Kept);
        }
        self.groups[g].1.push(v);
        Ok(())
    }

    /// Each group's box, in order of their first rows.
    pub(crate) fn finish(self) -> Vec<(String, BoxStats)> {
        self.groups
            .into_iter()
            .filter_map(|(name, mut values)| Some((name, BoxStats::of(&mut values)?)))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn groups_in_order_and_capped() {
        let mut b = BoxGroups::new(2);
        for (g, v) in [("b", 1.0), ("a", 2.0), ("b", 3.0), ("a", f64::NAN)] {
            b.push(g, v).unwrap();
        }
        assert_eq!(b.push("c", 1.0), Err(Overflow::Groups(2)));
        let boxes = b.finish();
        assert_eq!(boxes[0].0, "b");
        assert_eq!(boxes[0].1.median, 2.0);
        assert_eq!(boxes[1].1.n, 1);
    }
}
