//! Live chart updates, shared by the renderer (which draws each live
//! chart once, at the end of input) and `--live` (which redraws them in
//! place): [`is_live`] tells an update, [`LiveCharts`] keeps the latest
//! per id, [`frame`] draws one as the chart and a footer of per-series
//! statistics ([`stats`]). A leaf below both `stream.rs` and `live/`.

mod stats;

use super::text::clean_line;
use super::{RenderOptions, render_chart};
use crate::events::Event;
use crate::spec::Chart;

/// Live charts kept at once; the ids after these are not drawn (warned).
pub const MAX_LIVE: usize = 16;

/// A `visualization` event marked `"live": true`.
pub fn is_live(e: &Event) -> bool {
    e.kind() == "visualization" && e.bool_field("live") == Some(true)
}

pub(super) fn id_of(e: &Event) -> &str {
    e.str_field("id").unwrap_or("")
}

/// The latest update of each live chart, in the order the ids came.
#[derive(Debug, Default, Clone)]
pub struct LiveCharts {
    charts: Vec<(String, Event)>,
    refused: bool,
}

impl LiveCharts {
    /// Keeps `e` as its id's latest; past [`MAX_LIVE`] ids the new one is
    /// dropped, and the first time a note says so.
    pub fn put(&mut self, e: Event) -> Option<String> {
        let id = id_of(&e);
        if let Some(slot) = self.charts.iter_mut().find(|(i, _)| i == id) {
            slot.1 = e;
            return None;
        }
        if self.charts.len() == MAX_LIVE {
            let first = !std::mem::replace(&mut self.refused, true);
            return first.then(|| {
                format!(
                    "more than {MAX_LIVE} live charts; the one with id {:?} and later ones are not drawn",
                    clean_line(id, false)
                )
            });
        }
        self.charts.push((id.to_string(), e));
        None
    }

    pub fn is_empty(&self) -> bool {
        self.charts.is_empty()
    }

    /// The latest updates, in order, leaving none.
    pub fn take(&mut self) -> Vec<Event> {
        std::mem::take(&mut self.charts)
            .into_iter()
            .map(|(_, e)| e)
            .collect()
    }
}

/// One live chart as lines: the chart, then the statistics footer.
pub fn frame(chart: &Chart, opts: &RenderOptions) -> Vec<String> {
    let mut lines = render_chart(chart, opts);
    lines.extend(stats::footer(chart, opts));
    lines
}
