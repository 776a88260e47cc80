//! Charts of cells and boxes, as in the terminal: a heatmap's grid (the
//! column names above, the row names left, each cell filled with its
//! colour and its value written in it when it fits, the colour scale
//! under it) and box plots (a row per group on one value axis: whiskers,
//! the box, the median, outliers as dots).

use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::super::marks::{ColourScale, GridCell, box_scale};
use super::super::text::clean_line;
use super::frame::{
    Area, DrawFailed, FONT, INK, LEFT, MEDIUM, MUTED, SMALL, WIDTH, colour, failed, text_width,
};
use crate::spec::boxplot::BoxStats;

/// A cell's height, and a box's row.
const ROW: u32 = 26;
/// The column names' band above the grid, and the scale's below.
const HEAD: u32 = 44;
const SCALE: u32 = 48;

/// Body height for a grid of `n` rows.
pub fn grid_height(n: usize) -> u32 {
    HEAD + n as u32 * ROW + SCALE
}

/// The grid of a heatmap.
pub fn grid(
    columns: &[String],
    rows: &[String],
    cells: &[Vec<GridCell>],
    scale: &ColourScale,
    (across, down): (Option<&str>, Option<&str>),
    area: &Area,
) -> Result<(), DrawFailed> {
    let names: Vec<String> = rows.iter().map(|r| clean_line(r, false)).collect();
    let label_w = names
        .iter()
        .map(|n| text_width(n, SMALL))
        .chain(down.map(|d| text_width(d, SMALL)))
        .max()
        .unwrap_or(0)
        .min(WIDTH as i32 / 3);
    let x0 = LEFT + label_w + 8;
    let room = WIDTH as i32 - x0 - LEFT;
    let cell_w = (room / columns.len().max(1) as i32).clamp(2, 80);
    let font = |size: u32, h: HPos| {
        (FONT, size)
            .into_font()
            .color(&INK)
            .pos(Pos::new(h, VPos::Center))
    };
    if let Some(t) = across {
        area.draw(&Text::new(
            clean_line(t, false),
            (x0, 10),
            font(MEDIUM, HPos::Left),
        ))
        .map_err(failed)?;
    }
    if let Some(t) = down {
        area.draw(&Text::new(
            clean_line(t, false),
            (LEFT, HEAD as i32 - 12),
            font(SMALL, HPos::Left),
        ))
        .map_err(failed)?;
    }
    let fits = |s: &str| text_width(s, SMALL) + 4 <= cell_w;
    for (i, c) in columns.iter().enumerate() {
        let c = clean_line(c, false);
        if fits(&c) {
            let x = x0 + i as i32 * cell_w + cell_w / 2;
            area.draw(&Text::new(
                c,
                (x, HEAD as i32 - 12),
                font(SMALL, HPos::Center),
            ))
            .map_err(failed)?;
        }
    }
    for (r, (name, row)) in names.iter().zip(cells).enumerate() {
        let y = HEAD as i32 + r as i32 * ROW as i32;
        area.draw(&Text::new(
            name.clone(),
            (LEFT, y + ROW as i32 / 2),
            font(SMALL, HPos::Left),
        ))
        .map_err(failed)?;
        for (i, v) in row.iter().enumerate() {
            let Some((text, (red, green, blue))) = v else {
                continue;
            };
            let x = x0 + i as i32 * cell_w;
            let fill = RGBColor(*red, *green, *blue);
            area.draw(&Rectangle::new(
                [(x, y), (x + cell_w - 1, y + ROW as i32 - 1)],
                fill.filled(),
            ))
            .map_err(failed)?;
            if fits(text) {
                let light = u32::from(*red) + u32::from(*green) + u32::from(*blue) > 380;
                let ink = if light { BLACK } else { WHITE };
                let style = (FONT, SMALL)
                    .into_font()
                    .color(&ink)
                    .pos(Pos::new(HPos::Center, VPos::Center));
                area.draw(&Text::new(
                    text.clone(),
                    (x + cell_w / 2, y + ROW as i32 / 2),
                    style,
                ))
                .map_err(failed)?;
            }
        }
    }
    scale_bar(
        scale,
        x0,
        HEAD as i32 + rows.len() as i32 * ROW as i32 + 14,
        area,
    )
}

/// The colour scale: its title, the smallest value, the colours, the largest.
fn scale_bar(
    ColourScale {
        title,
        lo,
        hi,
        colours,
    }: &ColourScale,
    x0: i32,
    y: i32,
    area: &Area,
) -> Result<(), DrawFailed> {
    let text = |h: HPos| {
        (FONT, SMALL)
            .into_font()
            .color(&MUTED)
            .pos(Pos::new(h, VPos::Center))
    };
    let mut x = x0;
    if let Some(t) = title {
        let t = clean_line(t, false);
        let tw = text_width(&t, SMALL);
        area.draw(&Text::new(t, (x, y + 8), text(HPos::Left)))
            .map_err(failed)?;
        x += tw + 10;
    }
    area.draw(&Text::new(lo.clone(), (x, y + 8), text(HPos::Left)))
        .map_err(failed)?;
    x += text_width(lo, SMALL) + 6;
    for (r, g, b) in colours {
        area.draw(&Rectangle::new(
            [(x, y), (x + 20, y + 16)],
            RGBColor(*r, *g, *b).filled(),
        ))
        .map_err(failed)?;
        x += 20;
    }
    area.draw(&Text::new(hi.clone(), (x + 6, y + 8), text(HPos::Left)))
        .map_err(failed)
}

/// Body height for `n` boxes: the rows, the value axis and its title.
pub fn boxes_height(n: usize) -> u32 {
    n as u32 * ROW + 80
}

/// A box per group on one value axis.
pub fn boxes(
    groups: &[(String, BoxStats)],
    (value_title, category): (Option<&str>, Option<&str>),
    unit: Option<&str>,
    area: &Area,
) -> Result<(), DrawFailed> {
    let scale = box_scale(groups, 6, unit);
    let names: Vec<String> = groups.iter().map(|(n, _)| clean_line(n, false)).collect();
    let label_w = names
        .iter()
        .map(|n| text_width(n, SMALL))
        .chain(category.map(|c| text_width(c, SMALL)))
        .max()
        .unwrap_or(0)
        .min(WIDTH as i32 / 3);
    let x0 = LEFT + label_w + 12;
    let x1 = WIDTH as i32 - LEFT - 10;
    let px = |v: f64| x0 + (scale.frac(v) * f64::from(x1 - x0)).round() as i32;
    let top = 20;
    let left = |size: u32, h: HPos, c: &RGBColor| {
        (FONT, size)
            .into_font()
            .color(c)
            .pos(Pos::new(h, VPos::Center))
    };
    if let Some(c) = category {
        area.draw(&Text::new(
            clean_line(c, false),
            (LEFT, 8),
            left(SMALL, HPos::Left, &MUTED),
        ))
        .map_err(failed)?;
    }
    let ink = colour(0);
    for (i, ((_, b), name)) in groups.iter().zip(&names).enumerate() {
        let mid = top + i as i32 * ROW as i32 + ROW as i32 / 2;
        area.draw(&Text::new(
            name.clone(),
            (LEFT, mid),
            left(SMALL, HPos::Left, &INK),
        ))
        .map_err(failed)?;
        let line = |a: (i32, i32), z: (i32, i32)| PathElement::new(vec![a, z], INK.stroke_width(1));
        area.draw(&line((px(b.lower), mid), (px(b.upper), mid)))
            .map_err(failed)?;
        for end in [b.lower, b.upper] {
            area.draw(&line((px(end), mid - 5), (px(end), mid + 5)))
                .map_err(failed)?;
        }
        area.draw(&Rectangle::new(
            [(px(b.q1), mid - 8), (px(b.q3), mid + 8)],
            ink.filled(),
        ))
        .map_err(failed)?;
        area.draw(&PathElement::new(
            vec![(px(b.median), mid - 8), (px(b.median), mid + 8)],
            WHITE.stroke_width(2),
        ))
        .map_err(failed)?;
        for &o in &b.outliers {
            area.draw(&Circle::new((px(o), mid), 3, INK.stroke_width(1)))
                .map_err(failed)?;
        }
    }
    let axis_y = top + groups.len() as i32 * ROW as i32 + 6;
    area.draw(&PathElement::new(
        vec![(x0, axis_y), (x1, axis_y)],
        MUTED.stroke_width(1),
    ))
    .map_err(failed)?;
    for t in &scale.ticks {
        let x = px(t.at);
        area.draw(&PathElement::new(
            vec![(x, axis_y), (x, axis_y + 5)],
            MUTED.stroke_width(1),
        ))
        .map_err(failed)?;
        area.draw(&Text::new(
            t.label.clone(),
            (x, axis_y + 16),
            left(SMALL, HPos::Center, &INK),
        ))
        .map_err(failed)?;
    }
    if let Some(t) = value_title {
        let at = ((x0 + x1) / 2, axis_y + 38);
        area.draw(&Text::new(
            clean_line(t, false),
            at,
            left(MEDIUM, HPos::Center, &INK),
        ))
        .map_err(failed)?;
    }
    Ok(())
}
