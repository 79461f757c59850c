#include "captcharenderer.h"

#include <QBuffer>
#include <QColor>
#include <QCoreApplication>
#include <QFont>
#include <QGuiApplication>
#include <QImage>
#include <QLinearGradient>
#include <QLoggingCategory>
#include <QPainter>
#include <QPainterPath>
#include <QPen>
#include <QPointF>
#include <QRandomGenerator>
#include <QRectF>

namespace {

Q_LOGGING_CATEGORY(lcCaptcha, "rechargedesk.aadhaar.captcha")

constexpr int HorizontalMargin = 12;
constexpr double GlyphPixelSize = 44.0;
constexpr double MaxRotationDegrees = 20.0;
constexpr double MaxHorizontalJitter = 3.0;
constexpr double MaxVerticalJitter = 7.0;

/// Uniform double in [low, high).
double uniform(QRandomGenerator &rng, double low, double high)
{
    return low + rng.generateDouble() * (high - low);
}

/// Uniform int in [low, high].
int between(QRandomGenerator &rng, int low, int high)
{
    return rng.bounded(low, high + 1);
}

QPointF randomPoint(QRandomGenerator &rng)
{
    return {uniform(rng, 0.0, CaptchaRenderer::Width), uniform(rng, 0.0, CaptchaRenderer::Height)};
}

/// A light two-colour gradient across the whole image.
void drawBackground(QPainter &painter, QRandomGenerator &rng)
{
    const int hue = between(rng, 0, 359);
    const QColor from = QColor::fromHsl(hue, between(rng, 60, 120), between(rng, 228, 245));
    const int toHue = (hue + between(rng, 40, 120)) % 360;
    const QColor to = QColor::fromHsl(toHue, between(rng, 60, 120), between(rng, 205, 222));
    QLinearGradient gradient(QPointF(0.0, uniform(rng, 0.0, CaptchaRenderer::Height)),
                             QPointF(CaptchaRenderer::Width, uniform(rng, 0.0, CaptchaRenderer::Height)));
    gradient.setColorAt(0.0, from);
    gradient.setColorAt(1.0, to);
    painter.fillRect(QRectF(0.0, 0.0, CaptchaRenderer::Width, CaptchaRenderer::Height), gradient);
}

/// A wavy curve from the left edge to the right edge.
QPainterPath randomCurve(QRandomGenerator &rng)
{
    const double h = CaptchaRenderer::Height;
    const double w = CaptchaRenderer::Width;
    QPainterPath path(QPointF(uniform(rng, -10.0, 10.0), uniform(rng, 0.15 * h, 0.85 * h)));
    path.cubicTo(QPointF(uniform(rng, 0.2 * w, 0.4 * w), uniform(rng, -0.2 * h, 1.2 * h)),
                 QPointF(uniform(rng, 0.6 * w, 0.8 * w), uniform(rng, -0.2 * h, 1.2 * h)),
                 QPointF(uniform(rng, w - 10.0, w + 10.0), uniform(rng, 0.15 * h, 0.85 * h)));
    return path;
}

/// Curves and dots in mid tones, drawn below and above the digits; @p darkest is the lowest HSL lightness used.
void drawNoise(QPainter &painter, QRandomGenerator &rng, int curves, int dots, int darkest, double maxPenWidth)
{
    painter.setBrush(Qt::NoBrush);
    for (int i = 0; i < curves; ++i) {
        const QColor colour = QColor::fromHsl(between(rng, 0, 359), between(rng, 40, 160), between(rng, darkest, 190));
        painter.setPen(QPen(colour, uniform(rng, 1.0, maxPenWidth), Qt::SolidLine, Qt::RoundCap));
        painter.drawPath(randomCurve(rng));
    }
    painter.setPen(Qt::NoPen);
    for (int i = 0; i < dots; ++i) {
        painter.setBrush(QColor::fromHsl(between(rng, 0, 359), between(rng, 0, 160), between(rng, darkest, 230)));
        const double radius = uniform(rng, 0.6, 1.6);
        painter.drawEllipse(randomPoint(rng), radius, radius);
    }
}

/// Each glyph in its own cell, centred, then rotated, offset and slightly stretched.
void drawGlyphs(QPainter &painter, QRandomGenerator &rng, const QString &digits)
{
    QFont font(QStringLiteral("DejaVu Sans"));
    font.setStyleHint(QFont::SansSerif); // falls back to the default sans-serif family if DejaVu is missing
    font.setPixelSize(qRound(GlyphPixelSize));
    font.setWeight(QFont::Bold);

    const double cellWidth = double(CaptchaRenderer::Width - 2 * HorizontalMargin) / double(digits.size());
    painter.setPen(Qt::NoPen);
    for (qsizetype i = 0; i < digits.size(); ++i) {
        QPainterPath glyph;
        glyph.addText(0.0, 0.0, font, QString(digits.at(i)));
        glyph.translate(-glyph.boundingRect().center());

        const double centreX = HorizontalMargin + cellWidth * (double(i) + 0.5);
        painter.save();
        painter.translate(centreX + uniform(rng, -MaxHorizontalJitter, MaxHorizontalJitter),
                          CaptchaRenderer::Height / 2.0 + uniform(rng, -MaxVerticalJitter, MaxVerticalJitter));
        painter.rotate(uniform(rng, -MaxRotationDegrees, MaxRotationDegrees));
        painter.scale(uniform(rng, 0.85, 1.05), uniform(rng, 0.9, 1.1));
        painter.shear(uniform(rng, -0.15, 0.15), 0.0);
        painter.setBrush(QColor::fromHsl(between(rng, 0, 359), between(rng, 80, 200), between(rng, 25, 60)));
        painter.drawPath(glyph);
        painter.restore();
    }
}

} // namespace

CaptchaRenderer::CaptchaRenderer(QRandomGenerator *rng) : m_rng(rng != nullptr ? rng : QRandomGenerator::global())
{}

QByteArray CaptchaRenderer::renderPng(const QString &digits) const
{
    if (digits.isEmpty() || digits.size() > MaxGlyphs)
        return {};
    if (qobject_cast<QGuiApplication *>(QCoreApplication::instance()) == nullptr) {
        qCWarning(lcCaptcha, "CaptchaRenderer needs a QGuiApplication for fonts; no captcha rendered");
        return {};
    }

    QImage image(Width, Height, QImage::Format_RGB32);
    {
        QPainter painter(&image);
        painter.setRenderHint(QPainter::Antialiasing);
        drawBackground(painter, *m_rng);
        drawNoise(painter, *m_rng, between(*m_rng, 4, 6), between(*m_rng, 100, 140), 140, 2.0);
        drawGlyphs(painter, *m_rng, digits);
        drawNoise(painter, *m_rng, 2, between(*m_rng, 60, 90), 70, 1.6);
    }

    QByteArray png;
    QBuffer buffer(&png);
    if (!buffer.open(QIODevice::WriteOnly) || !image.save(&buffer, "PNG"))
        return {};
    return png;
}

QString CaptchaRenderer::randomDigits(QRandomGenerator &rng, int count)
{
    QString digits;
    if (count <= 0)
        return digits;
    digits.reserve(count);
    for (int i = 0; i < count; ++i)
        digits.append(QChar(u'0' + rng.bounded(10)));
    return digits;
}
