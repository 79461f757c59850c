#pragma once

#include "money.h"
#include "widgets/qrcode.h"

#include <QWidget>

class QLabel;
class QrCodeCanvas;

/// The UPI QR a customer scans to pay the shop (issue 28): the QR code of a payment link (core/upilink.h) with a
/// caption under it, e.g. "₹299.00 to Sharma Mobile". The code is black on white whatever the theme, with a quiet
/// zone of 4 modules and a whole number of pixels per module; it grows with the widget and is never smaller than
/// minimumCodeSide() (about 6 cm on the screen, so a phone reads it from 40 cm). For a receipt, image() gives the
/// same code as a picture of the size asked for.
class UpiQrWidget final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(UpiQrWidget)

public:
    /// The least side of the code's symbol (quiet zone not counted) in pixels, whatever the screen says.
    static constexpr int kMinimumCodePixels = 240;
    /// The least side of the symbol on a screen whose physical size is known, in millimetres.
    static constexpr int kMinimumCodeMm = 60;

    explicit UpiQrWidget(QWidget *parent = nullptr);
    ~UpiQrWidget() override;

    /// Shows the QR of `link` (a UpiLink::build() result) captioned with the amount (paise, Indian grouping) and
    /// the payee: "₹299.00 to Sharma Mobile". An empty link clears the widget.
    void setPayment(const QString &link, Paise amount, const QString &payeeName);
    /// Shows the QR of any `text` with `caption` under it; an empty or unencodable text shows no code.
    void setCode(const QString &text, const QString &caption);
    /// Shows nothing.
    void clear();

    /// The text the shown code carries ("" when none).
    const QString &text() const { return m_text; }
    /// The caption under the code.
    QString caption() const;
    /// True when a code is drawn.
    bool hasCode() const { return !m_code.isNull(); }
    /// The shown code as a white `side` × `side` image (QrCode::toImage): for printing on a receipt. A null image
    /// when no code is shown or `side` is too small for one pixel per module.
    QImage image(int side) const;
    /// The side the symbol is drawn at least at, in pixels: kMinimumCodeMm on this widget's screen, and never
    /// under kMinimumCodePixels.
    int minimumCodeSide() const;

private:
    QString m_text;
    QrCode m_code;
    QrCodeCanvas *m_canvas;
    QLabel *m_caption;
};
