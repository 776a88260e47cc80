//! Terminal renderers: bar, line and table charts, text, chapter headers;
//! width-aware, Unicode first with an ASCII fallback.
