#pragma once

#include <QByteArray>
#include <QString>

class QRandomGenerator;

/// Draws the numeric captcha of the Aadhaar OTP flow (api-conventions.md, "Aadhaar OTP flow") as a PNG image
/// (ISO/IEC 15948). The digits are large and dark on a light gradient so a person reads them at a glance; noise
/// curves and dots, per-glyph rotation (up to ±20°), offsets and colours keep naive OCR out.
///
/// Text is drawn with QPainter on a QImage, which needs a QGuiApplication (or QApplication) for fonts; on a server
/// without a display run it with QT_QPA_PLATFORM=offscreen. Not thread-safe unless the generator is (the default,
/// QRandomGenerator::global(), is).
class CaptchaRenderer
{
public:
    /// Image width in pixels.
    static constexpr int Width = 200;
    /// Image height in pixels.
    static constexpr int Height = 70;
    /// Longest string renderPng() draws, in characters; the flow uses 6.
    static constexpr int MaxGlyphs = 8;

    /// Creates a renderer drawing its randomness (layout, colours, noise) from @p rng, which is not owned and must
    /// outlive the renderer. nullptr selects QRandomGenerator::global(). Tests pass a seeded generator to get
    /// reproducible images.
    explicit CaptchaRenderer(QRandomGenerator *rng = nullptr);

    /// Renders @p digits (normally 6 ASCII digits, e.g. from randomDigits()) as a Width x Height PNG and returns
    /// the encoded file bytes. Returns an empty QByteArray if @p digits is empty or longer than MaxGlyphs, if no
    /// QGuiApplication exists (fonts would be unavailable), or if PNG encoding fails.
    QByteArray renderPng(const QString &digits) const;

    /// Returns @p count uniformly random ASCII digits ('0'..'9') drawn from @p rng; an empty string if
    /// @p count <= 0. Use a cryptographically strong generator (QRandomGenerator::system()) for real captchas.
    static QString randomDigits(QRandomGenerator &rng, int count);

private:
    QRandomGenerator *m_rng;
};
