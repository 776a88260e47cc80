//! The integration tests, one binary: each module is an area of the
//! programs (the former `tests/<name>.rs`), `support` the helpers they
//! share. One binary links tokio, rmcp, syntect and plotters once, not once
//! a file; its tests run as threads of one process, so a test keeps its
//! files in its own `support::temp_dir` and changes nothing process-wide
//! (environment, working directory, signal dispositions).
//!
//! `cargo test --test it <area>::` runs one area (`viz_parse::`,
//! `gem_ask_repl::`), `cargo test --test it <area>::<test>` one test.

mod support;

mod docs_current;
mod fast_lane_props;
mod follow_props;
mod foreign_props;
mod foreign_streams;
mod fuzz_regressions;
mod gem_ask_attach;
mod gem_ask_attach_data;
mod gem_ask_budget;
mod gem_ask_cache;
mod gem_ask_chart_kinds;
mod gem_ask_charts;
mod gem_ask_consent;
mod gem_ask_history;
mod gem_ask_interrupt;
mod gem_ask_log;
mod gem_ask_log_runs;
mod gem_ask_long_stream;
mod gem_ask_map;
mod gem_ask_map_batch;
mod gem_ask_map_input;
mod gem_ask_markdown_tty;
mod gem_ask_mcp;
mod gem_ask_mcp_bounds;
mod gem_ask_mcp_remote;
mod gem_ask_media;
mod gem_ask_memory;
mod gem_ask_memory_secrets;
mod gem_ask_memory_turns;
mod gem_ask_models;
mod gem_ask_oneshot;
mod gem_ask_openai;
mod gem_ask_outbound;
mod gem_ask_plot;
mod gem_ask_plot_marks;
mod gem_ask_policy;
mod gem_ask_policy_place;
mod gem_ask_repl;
mod gem_ask_replay;
mod gem_ask_retry;
mod gem_ask_rounds;
mod gem_ask_sandbox;
mod gem_ask_schema;
mod gem_ask_secrets;
mod gem_ask_session;
mod gem_ask_signals;
mod gem_ask_stops;
mod gem_ask_task;
mod gem_ask_tools;
mod gem_ask_web;
mod gemini_cli_stream;
mod help_short;
mod layers;
mod live;
mod markdown_defects;
mod markdown_in_place;
mod markdown_math;
mod markdown_spec;
mod markdown_tty;
mod memory_faults;
mod session_faults;
mod shell_integration;
mod toolbox_props;
mod toolbox_race;
mod topic_tag;
mod topic_tag_edges;
mod topic_tag_props;
mod topics_e2e;
mod viz_bars_scales_trend;
mod viz_calculate_fold;
mod viz_defects;
mod viz_facet_spark;
mod viz_heatmap_bins;
mod viz_heatmap_box;
mod viz_line_defaults;
mod viz_parse;
mod viz_parse_ambiguity;
mod viz_parse_api;
mod viz_parse_fixes;
mod viz_parse_formats;
mod viz_parse_grammar;
mod viz_parse_input;
mod viz_parse_props;
mod viz_parse_roles;
mod viz_real_data;
mod viz_render;
mod viz_render_ci;
mod viz_render_grammar;
mod viz_render_graphics;
mod viz_render_kinds_markdown;
mod viz_render_markdown;
mod viz_render_props;
mod viz_render_report;
mod viz_render_snapshots;
mod viz_render_stream;
mod viz_render_svg;
mod viz_render_terminal;
mod viz_render_vegalite;
mod viz_scales_calendar;
mod viz_table_spark;
mod viz_transform_props;
mod viz_transforms;
