//! gem-ask's flags for files in and images and speech out (flattened
//! into [`super::Args`]), and the engine's plain [`MediaOptions`] they
//! become.

use std::path::PathBuf;

use crate::agent::media::{MediaOptions, Modality};
use crate::render::graphics::Graphics;

#[derive(Debug, Clone, clap::Args)]
pub struct MediaArgs {
    /// Attach a file to the prompt (repeatable): an image, PDF, audio, video or text file, its type
    /// read from its bytes; `-` attaches stdin; an https:// URL is passed for the API to fetch. Small
    /// files go inline, larger ones through the Files API (a progress bar on a terminal). A missing
    /// file is exit 66, one too large or of a type the model does not take exit 65.
    #[arg(short = 'a', long = "attach", value_name = "FILE|-|URL")]
    pub attach: Vec<String>,

    /// Where images and audio the model (or a tool) makes are written, as gem-ask-image-N.png,
    /// gem-ask-audio-N.wav (never overwriting) [default: the working directory].
    #[arg(long, value_name = "DIR", help_heading = "Output")]
    pub output_dir: Option<PathBuf>,

    /// Ask for speech in this prebuilt voice (Kore, Puck, Charon, ...; a TTS model, e.g.
    /// gemini-3.1-flash-tts-preview): the answer is written as a WAV file.
    #[arg(long, value_name = "NAME")]
    pub voice: Option<String>,

    /// What the model answers with (responseModalities), e.g. text,image for an image model
    /// [default: the model's own].
    #[arg(long, value_enum, value_delimiter = ',', value_name = "LIST")]
    pub modalities: Vec<Modality>,

    /// Text output only: draw images inline on a terminal that shows them (kitty, iTerm2, sixel;
    /// auto detects which), else one line with the path; never into a pipe.
    #[arg(long, value_enum, value_name = "WHEN", default_value_t = Graphics::Auto, help_heading = "Output")]
    pub graphics: Graphics,
}

impl MediaArgs {
    pub fn options(&self) -> MediaOptions {
        MediaOptions {
            attach: self.attach.clone(),
            output_dir: self.output_dir.clone(),
            voice: self.voice.clone(),
            modalities: self.modalities.clone(),
            graphics: self.graphics,
        }
    }
}
