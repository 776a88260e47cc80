//! Text for the terminal, by concern: making model and data text
//! harmless ([`sanitize`]: control characters, escapes, bidi overrides,
//! ASCII transliteration), display width ([`width`]), number formats
//! ([`number`]) and styles with styled line building that measures text
//! without its colour codes ([`style`]). Cutting and wrapping to a width
//! is `render::wrap`.

mod number;
mod sanitize;
mod style;
mod width;

pub use number::{ExactFormat, NumFormat, are_years, fixed, nice_step, titled, with_unit};
pub use sanitize::{ascii_fold, clean_line, clean_text, clean_text_cow, clean_title};
pub use style::{Line, PALETTE, Style, paint};
pub use width::{additive, char_width, strip_ansi, visible_width, width};
