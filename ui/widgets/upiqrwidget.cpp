#include "upiqrwidget.h"

#include "widgets/look.h"

#include <QLabel>
#include <QPainter>
#include <QScreen>
#include <QVBoxLayout>

#include <cmath>

/// Paints a QrCode in the largest square it has; its least size keeps the symbol at the widget's
/// minimumCodeSide() with a whole number of pixels per module.
class QrCodeCanvas final : public QWidget
{
public:
    explicit QrCodeCanvas(const UpiQrWidget &owner, const QrCode &code) : m_owner(owner), m_code(code)
    {
        setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
    }

    QSize minimumSizeHint() const override
    {
        if (m_code.isNull())
            return {0, 0};
        // Pixels per module so that the symbol (without its quiet zone) is at least the minimum side.
        const int perModule = (m_owner.minimumCodeSide() + m_code.width() - 1) / m_code.width();
        const int side = perModule * m_code.widthWithQuietZone();
        return {side, side};
    }
    QSize sizeHint() const override { return minimumSizeHint(); }

protected:
    void paintEvent(QPaintEvent *) override
    {
        if (m_code.isNull())
            return;
        QPainter painter(this);
        m_code.paint(painter, rect());
    }

private:
    const UpiQrWidget &m_owner;
    const QrCode &m_code;
};

UpiQrWidget::UpiQrWidget(QWidget *parent)
    : QWidget(parent), m_canvas(new QrCodeCanvas(*this, m_code)), m_caption(new QLabel)
{
    m_canvas->setObjectName(QStringLiteral("upiQrCode"));
    m_caption->setObjectName(QStringLiteral("upiQrCaption"));
    Look::set(m_caption, "qrCaption");
    m_caption->setAlignment(Qt::AlignCenter);
    m_caption->setWordWrap(true);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_canvas, 1);
    layout->addWidget(m_caption);
    clear();
}

UpiQrWidget::~UpiQrWidget() = default;

void UpiQrWidget::setPayment(const QString &link, Paise amount, const QString &payeeName)
{
    if (link.isEmpty()) {
        clear();
        return;
    }
    //: Under the UPI QR: the amount to pay and who receives it, e.g. "₹299.00 to Sharma Mobile".
    setCode(link, tr("%1 to %2").arg(Money::formatIndian(amount), payeeName));
}

void UpiQrWidget::setCode(const QString &text, const QString &caption)
{
    m_code = QrCode::encode(text);
    m_text = m_code.isNull() ? QString() : text;
    m_caption->setText(m_code.isNull() ? QString() : caption);
    m_caption->setVisible(!m_caption->text().isEmpty());
    m_canvas->setVisible(!m_code.isNull());
    m_canvas->updateGeometry();
    m_canvas->update();
}

void UpiQrWidget::clear()
{
    setCode(QString(), QString());
}

QString UpiQrWidget::caption() const
{
    return m_caption->text();
}

QImage UpiQrWidget::image(int side) const
{
    return m_code.toImage(side);
}

int UpiQrWidget::minimumCodeSide() const
{
    const QScreen *shown = screen();
    const qreal dpi = shown ? shown->physicalDotsPerInch() : 0;
    // A screen that reports no size, or an absurd one, gives the fixed least side alone.
    if (dpi < 30 || dpi > 1000)
        return kMinimumCodePixels;
    return qMax(kMinimumCodePixels, int(std::ceil(kMinimumCodeMm * dpi / 25.4)));
}
