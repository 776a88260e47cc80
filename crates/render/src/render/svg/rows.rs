//! Charts drawn as rows, as in the terminal: horizontal bars (a bar
//! chart, or a grammar chart's bars over categories: one row per category
//! and series, grouped, on one value axis, each value written at its
//! bar's end), shares of a total (a sector mark: one bar split in
//! proportion, then a row per part with its value and percentage), and
//! tables (labels left, exact numbers right, the unit in the header).

use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::super::bar::{Row, StackRow};
use super::super::plot::axes::Scale;
use super::super::plot::{AxisSpec, fit_axis, scaled};
use super::super::text::{ExactFormat, NumFormat, clean_line, fixed, with_unit};
use super::frame::{
    Area, Cartesian, DrawFailed, FONT, INK, LEFT, MEDIUM, MUTED, SMALL, Ticked, WIDTH, colour,
    failed, text_width,
};
use crate::spec::ScaleType;

/// Height of one bar row, and of a table row.
pub const ROW: u32 = 26;

/// Body height for `n` bar rows: the rows, the value axis and its title.
pub fn bars_height(n: usize) -> u32 {
    n as u32 * ROW + 72
}

/// Horizontal bars on one value axis from zero; `value_title` under it.
pub fn bars(
    rows: &[Row],
    titles: (Option<&str>, Option<&str>),
    (unit, kind, extent): (Option<&str>, Option<ScaleType>, &[f64]),
    area: &Area,
) -> Result<(), DrawFailed> {
    let kind = kind.filter(|k| *k != ScaleType::Linear);
    let values = rows.iter().map(|r| r.value).chain(extent.iter().copied());
    let scale = match kind {
        Some(k) => scaled::bars_axis(values, unit, k, 6),
        None => scale_over(values, unit),
    };
    let mut chart = bar_axes(area, rows, &scale, titles)?;
    bar_mesh(&mut chart, rows, &scale, titles)?;
    let fmt = NumFormat::for_values(rows.iter().map(|r| r.value));
    let span = scale.lo.max(scale.hi) - scale.lo.min(scale.hi);
    for (i, r) in rows.iter().enumerate() {
        let text = with_unit(&fmt.format(r.value), unit);
        // On a log or square-root scale a bar runs from the floor to
        // where the scale puts its value.
        let (base, end) = match kind {
            Some(k) => (scale.lo, scale.lo + scaled::bar_length(&scale, k, r.value)),
            None => (0.0, r.value),
        };
        bar(&mut chart, i, r, text, (base, end, span))?;
    }
    Ok(())
}

/// Stacked bars on one value axis from zero: each row's segments end to
/// end in their series' colours (negative ones leftward), its total at
/// the end.
pub fn stacked(
    rows: &[StackRow],
    titles: (Option<&str>, Option<&str>),
    unit: Option<&str>,
    area: &Area,
) -> Result<(), DrawFailed> {
    let totals: Vec<Row> = rows
        .iter()
        .map(|r| Row {
            label: r.label.clone(),
            value: r.total,
            series: None,
        })
        .collect();
    let ends: Vec<f64> = rows
        .iter()
        .flat_map(|r| {
            let pos: f64 = r.segments.iter().map(|s| s.1.max(0.0)).sum();
            let neg: f64 = r.segments.iter().map(|s| s.1.min(0.0)).sum();
            [pos, neg]
        })
        .collect();
    let scale = scale_over(ends.iter().copied(), unit);
    let mut chart = bar_axes(area, &totals, &scale, titles)?;
    bar_mesh(&mut chart, &totals, &scale, titles)?;
    let fmt = NumFormat::for_values(totals.iter().map(|r| r.value));
    let span = scale.lo.max(scale.hi) - scale.lo.min(scale.hi);
    for (i, r) in rows.iter().enumerate() {
        let (mut pos, mut neg) = (0.0, 0.0);
        for &(si, v) in &r.segments {
            let at = if v < 0.0 { &mut neg } else { &mut pos };
            let from = *at;
            *at += v;
            chart
                .draw_series(std::iter::once(Rectangle::new(
                    [(from, i as f64 + 0.15), (*at, i as f64 + 0.85)],
                    colour(si).filled(),
                )))
                .map_err(failed)?;
        }
        let style = (FONT, SMALL)
            .into_font()
            .color(&INK)
            .pos(Pos::new(HPos::Left, VPos::Center));
        let text = with_unit(&fmt.format(r.total), unit);
        chart
            .draw_series(std::iter::once(Text::new(
                text,
                (pos + 0.01 * span, i as f64 + 0.5),
                style,
            )))
            .map_err(failed)?;
    }
    Ok(())
}

/// The terminal's scale over some values and zero.
fn scale_over(values: impl Iterator<Item = f64> + Clone, unit: Option<&str>) -> Scale {
    let lo = values.clone().fold(0f64, f64::min);
    let hi = values.fold(0f64, f64::max);
    fit_axis(
        &AxisSpec::Number {
            min: lo,
            max: hi,
            unit: unit.map(str::to_string),
            domain: None,
            invert: false,
        },
        6,
        false,
    )
}

/// The chart of [`bars`]: values across on `scale`'s ticks, a row per
/// bar down, each named row a key point (its label is the tick label),
/// room on the left for the labels and the category title.
fn bar_axes<'a, 'b>(
    area: &'a Area<'b>,
    rows: &[Row],
    scale: &Scale,
    (value_title, category_title): (Option<&str>, Option<&str>),
) -> Result<Cartesian<'a, 'b>, DrawFailed> {
    let (slo, shi) = (scale.lo.min(scale.hi), scale.lo.max(scale.hi));
    let n = rows.len().max(1) as f64;
    let label_w = rows
        .iter()
        .map(|r| text_width(&clean_line(&r.label, false), SMALL))
        .max()
        .unwrap_or(0)
        .clamp(40, WIDTH as i32 / 3);
    let ticks: Vec<f64> = scale.ticks.iter().map(|t| t.at).collect();
    // Each named row is a key point: its label is the tick label.
    let named: Vec<f64> = rows
        .iter()
        .enumerate()
        .filter(|(_, r)| !r.label.is_empty())
        .map(|(i, _)| i as f64 + 0.5)
        .collect();
    ChartBuilder::on(area)
        .margin_left(LEFT as u32)
        .margin_right(70)
        .margin_top(4)
        .x_label_area_size(if value_title.is_some() { 52 } else { 32 })
        .y_label_area_size(label_w + if category_title.is_some() { 34 } else { 12 })
        .build_cartesian_2d(
            Ticked {
                lo: slo,
                hi: shi,
                keys: ticks,
            },
            Ticked {
                lo: n,
                hi: 0.0,
                keys: named,
            },
        )
        .map_err(failed)
}

/// The grid, tick labels (the scale's on x, the rows' labels on y) and
/// axis titles of [`bars`].
fn bar_mesh(
    chart: &mut Cartesian,
    rows: &[Row],
    scale: &Scale,
    (value_title, category_title): (Option<&str>, Option<&str>),
) -> Result<(), DrawFailed> {
    let xl = |v: &f64| {
        scale
            .ticks
            .iter()
            .min_by(|a, b| (a.at - v).abs().total_cmp(&(b.at - v).abs()))
            .map(|t| t.label.clone())
            .unwrap_or_default()
    };
    let yl = |v: &f64| {
        let i = (*v - 0.5).round().max(0.0) as usize;
        rows.get(i)
            .map(|r| clean_line(&r.label, false))
            .unwrap_or_default()
    };
    let mut mesh = chart.configure_mesh();
    mesh.x_label_formatter(&xl)
        .y_label_formatter(&yl)
        .disable_y_mesh()
        .label_style((FONT, SMALL).into_font().color(&INK))
        .axis_desc_style((FONT, MEDIUM).into_font().color(&INK))
        .light_line_style(WHITE.mix(0.0))
        .bold_line_style(RGBColor(0xe5, 0xe7, 0xeb))
        .axis_style(MUTED);
    if let Some(t) = value_title {
        mesh.x_desc(clean_line(t, false));
    }
    if let Some(t) = category_title {
        mesh.y_desc(clean_line(t, false));
    }
    mesh.draw().map_err(failed)
}

/// Row `i`'s bar, coloured by its series (else by its sign), and its
/// value `text` just past its end (`span`: the axis' length in values).
fn bar(
    chart: &mut Cartesian,
    i: usize,
    r: &Row,
    text: String,
    (base, end, span): (f64, f64, f64),
) -> Result<(), DrawFailed> {
    let c = match r.series {
        Some(s) => colour(s),
        None if r.value < 0.0 => colour(3),
        None => colour(0),
    };
    let top = i as f64 + 0.15;
    let bottom = i as f64 + 0.85;
    chart
        .draw_series(std::iter::once(Rectangle::new(
            [(base, top), (end, bottom)],
            c.filled(),
        )))
        .map_err(failed)?;
    let (hpos, dx) = if r.value < 0.0 {
        (HPos::Right, -0.01)
    } else {
        (HPos::Left, 0.01)
    };
    let style = (FONT, SMALL)
        .into_font()
        .color(&INK)
        .pos(Pos::new(hpos, VPos::Center));
    chart
        .draw_series(std::iter::once(Text::new(
            text,
            (end + dx * span, i as f64 + 0.5),
            style,
        )))
        .map_err(failed)?;
    Ok(())
}

/// Body height for a share bar and `n` parts.
pub fn shares_height(n: usize) -> u32 {
    48 + n as u32 * ROW
}

/// One bar split in proportion, then a row per part: swatch, name,
/// value with its unit, percentage.
pub fn shares(parts: &[(String, f64)], unit: Option<&str>, area: &Area) -> Result<(), DrawFailed> {
    let total: f64 = parts.iter().map(|p| p.1).sum();
    let w = (WIDTH as i32 - 2 * LEFT) as f64;
    let mut x = LEFT as f64;
    for (i, (_, v)) in parts.iter().enumerate() {
        let dx = v / total * w;
        area.draw(&Rectangle::new(
            [(x.round() as i32, 4), ((x + dx).round() as i32, 32)],
            colour(i).filled(),
        ))
        .map_err(failed)?;
        x += dx;
    }
    let fmt = NumFormat::for_values(parts.iter().map(|p| p.1));
    let name_w = parts
        .iter()
        .map(|p| text_width(&clean_line(&p.0, false), MEDIUM))
        .max()
        .unwrap_or(0)
        .min(WIDTH as i32 / 2);
    let left = (FONT, MEDIUM)
        .into_font()
        .color(&INK)
        .pos(Pos::new(HPos::Left, VPos::Center));
    let right = (FONT, MEDIUM)
        .into_font()
        .color(&INK)
        .pos(Pos::new(HPos::Right, VPos::Center));
    for (i, (name, v)) in parts.iter().enumerate() {
        let y = 48 + i as i32 * ROW as i32 + ROW as i32 / 2;
        area.draw(&Rectangle::new(
            [(LEFT, y - 6), (LEFT + 12, y + 6)],
            colour(i).filled(),
        ))
        .map_err(failed)?;
        area.draw(&Text::new(
            clean_line(name, false),
            (LEFT + 20, y),
            left.clone(),
        ))
        .map_err(failed)?;
        let vx = LEFT + 20 + name_w + 110;
        area.draw(&Text::new(
            with_unit(&fmt.format(*v), unit),
            (vx, y),
            right.clone(),
        ))
        .map_err(failed)?;
        let pct = format!("{}%", fixed(v / total * 100.0, 1));
        area.draw(&Text::new(pct, (vx + 80, y), right.clone()))
            .map_err(failed)?;
    }
    Ok(())
}

/// Body height for a table of `n` rows.
pub fn table_height(n: usize) -> u32 {
    (n as u32 + 1) * ROW + 8
}

/// A table: a header row, then labels left and exact values right.
pub fn table(header: (&str, &str), rows: &[(String, f64)], area: &Area) -> Result<(), DrawFailed> {
    let fmt = ExactFormat::for_values(rows.iter().map(|r| r.1));
    let cells: Vec<(String, String)> = rows
        .iter()
        .map(|(l, v)| (clean_line(l, false), fmt.format(*v)))
        .collect();
    let lw = cells
        .iter()
        .map(|c| text_width(&c.0, MEDIUM))
        .chain([text_width(header.0, MEDIUM)])
        .max()
        .unwrap_or(0)
        .min(WIDTH as i32 / 2);
    let vw = cells
        .iter()
        .map(|c| text_width(&c.1, MEDIUM))
        .chain([text_width(header.1, MEDIUM)])
        .max()
        .unwrap_or(0);
    let right_edge = LEFT + lw + 32 + vw;
    let row_at = |r: usize| r as i32 * ROW as i32 + ROW as i32 / 2;
    let cell = |bold: bool, h: HPos| {
        let f = if bold {
            FontStyle::Bold
        } else {
            FontStyle::Normal
        };
        (FONT, MEDIUM, f)
            .into_font()
            .color(&INK)
            .pos(Pos::new(h, VPos::Center))
    };
    let left = |bold: bool| cell(bold, HPos::Left);
    let right = |bold: bool| cell(bold, HPos::Right);
    area.draw(&Text::new(
        clean_line(header.0, false),
        (LEFT, row_at(0)),
        left(true),
    ))
    .map_err(failed)?;
    area.draw(&Text::new(
        clean_line(header.1, false),
        (right_edge, row_at(0)),
        right(true),
    ))
    .map_err(failed)?;
    let rule = |y: i32| PathElement::new(vec![(LEFT, y), (right_edge, y)], MUTED.stroke_width(1));
    area.draw(&rule(ROW as i32)).map_err(failed)?;
    for (i, (l, v)) in cells.iter().enumerate() {
        let y = row_at(i + 1);
        area.draw(&Text::new(l.clone(), (LEFT, y), left(false)))
            .map_err(failed)?;
        area.draw(&Text::new(v.clone(), (right_edge, y), right(false)))
            .map_err(failed)?;
        if i + 1 < cells.len() {
            let y = (i as i32 + 2) * ROW as i32;
            area.draw(&PathElement::new(
                vec![(LEFT, y), (right_edge, y)],
                RGBColor(0xe5, 0xe7, 0xeb).stroke_width(1),
            ))
            .map_err(failed)?;
        }
    }
    Ok(())
}
