#include "qrcode.h"

#include <QPainter>
#include <QRect>
#include <QString>
#include <qrencode.h>

#include <memory>

QrCode QrCode::encode(const QString &text)
{
    const QByteArray utf8 = text.toUtf8();
    if (utf8.isEmpty() || utf8.contains('\0'))
        return {};
    // Version 0: the smallest that holds the text. Case-sensitive, so letters stay in byte mode as typed.
    const std::unique_ptr<QRcode, decltype(&QRcode_free)> symbol(
        QRcode_encodeString(utf8.constData(), 0, QR_ECLEVEL_M, QR_MODE_8, 1), &QRcode_free);
    if (!symbol)
        return {};
    QrCode code;
    code.m_width = symbol->width;
    code.m_dark.resize(qsizetype(symbol->width) * symbol->width);
    for (qsizetype i = 0; i < code.m_dark.size(); ++i)
        code.m_dark[i] = char(symbol->data[i] & 1); // bit 0 of each libqrencode byte: dark module
    return code;
}

int QrCode::widthWithQuietZone() const
{
    return isNull() ? 0 : m_width + 2 * kQuietZone;
}

bool QrCode::isDark(int x, int y) const
{
    if (x < 0 || y < 0 || x >= m_width || y >= m_width)
        return false;
    return m_dark.at(qsizetype(y) * m_width + x) != 0;
}

int QrCode::moduleSizeFor(int side) const
{
    return isNull() ? 0 : side / widthWithQuietZone();
}

void QrCode::paint(QPainter &painter, const QRect &rect) const
{
    const int side = qMin(rect.width(), rect.height());
    const QRect square(rect.x() + (rect.width() - side) / 2, rect.y() + (rect.height() - side) / 2, side, side);
    painter.save();
    painter.setRenderHint(QPainter::Antialiasing, false);
    painter.fillRect(square, Qt::white);
    const int module = moduleSizeFor(side);
    if (module > 0) {
        const int drawn = module * widthWithQuietZone();
        const int left = square.x() + (side - drawn) / 2 + kQuietZone * module;
        const int top = square.y() + (side - drawn) / 2 + kQuietZone * module;
        for (int y = 0; y < m_width; ++y) {
            for (int x = 0; x < m_width; ++x) {
                if (isDark(x, y))
                    painter.fillRect(left + x * module, top + y * module, module, module, Qt::black);
            }
        }
    }
    painter.restore();
}

QImage QrCode::toImage(int side) const
{
    if (moduleSizeFor(side) < 1)
        return {};
    QImage image(side, side, QImage::Format_RGB32);
    image.fill(Qt::white);
    QPainter painter(&image);
    paint(painter, image.rect());
    return image;
}
