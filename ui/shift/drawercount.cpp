#include "drawercount.h"

#include "entities/shift.h"
#include "widgets/digitslineedit.h"

#include <QGridLayout>
#include <QLabel>

namespace {

constexpr int kCountDigits = 5;  ///< notes of one denomination: up to 99,999 (the API takes 100,000)
constexpr int kCoinDigits = 6;   ///< whole rupees of coins
constexpr int kInputHeight = 44; ///< as tall as the sign-in page's fields, for fingers too
constexpr int kPerRow = 2;       ///< denominations side by side
constexpr int kColumns = 4;      ///< label, input, value, gap

} // namespace

DrawerCount::DrawerCount(QWidget *parent)
    : QWidget(parent), m_coins(new DigitsLineEdit(DigitsLineEdit::Kind::Rupees, kCoinDigits, this))
{
    auto *grid = new QGridLayout(this);
    grid->setContentsMargins(0, 0, 0, 0);
    grid->setHorizontalSpacing(10);
    grid->setVerticalSpacing(8);
    int at = 0;
    const auto place = [&](const QString &label, DigitsLineEdit *input, QLabel *value) {
        const int row = at / kPerRow;
        const int column = (at % kPerRow) * kColumns;
        auto *name = new QLabel(label, this);
        name->setBuddy(input);
        input->setMinimumHeight(kInputHeight);
        input->setMaximumWidth(140);
        grid->addWidget(name, row, column);
        grid->addWidget(input, row, column + 1);
        if (value)
            grid->addWidget(value, row, column + 2);
        ++at;
    };
    for (const int denomination : Shift::kDenominations) {
        auto *count = new DigitsLineEdit(DigitsLineEdit::Kind::Digits, kCountDigits, this);
        count->setObjectName(QStringLiteral("count_%1").arg(denomination));
        count->setPlaceholderText(QStringLiteral("0"));
        auto *value = new QLabel(this);
        value->setObjectName(QStringLiteral("countValue_%1").arg(denomination));
        value->setMinimumWidth(110);
        value->setAlignment(Qt::AlignLeft | Qt::AlignVCenter);
        m_counts.insert(denomination, count);
        m_values.insert(denomination, value);
        place(tr("₹%1 ×").arg(denomination), count, value);
    }
    m_coins->setObjectName(QStringLiteral("coins"));
    m_coins->setPlaceholderText(QStringLiteral("0"));
    place(tr("Coins ₹"), m_coins, nullptr);
    grid->setColumnMinimumWidth(kColumns - 1, 24);
    grid->setColumnStretch(kColumns * kPerRow - 1, 1);

    const auto watch = [this](DigitsLineEdit *edit) {
        connect(edit, &QLineEdit::textChanged, this, [this] {
            updateValues();
            emit changed();
        });
        connect(edit, &DigitsLineEdit::refused, this, &DrawerCount::refused);
    };
    for (DigitsLineEdit *edit : std::as_const(m_counts))
        watch(edit);
    watch(m_coins);
    // Tab follows the counting order (largest note first), not the grid's.
    const QList<QWidget *> order = inputs();
    for (qsizetype i = 1; i < order.size(); ++i)
        setTabOrder(order.at(i - 1), order.at(i));
}

QList<QWidget *> DrawerCount::inputs() const
{
    QList<QWidget *> out;
    for (const int denomination : Shift::kDenominations)
        out << m_counts.value(denomination);
    out << m_coins;
    return out;
}

QMap<int, qint64> DrawerCount::counts() const
{
    QMap<int, qint64> counts;
    for (auto it = m_counts.cbegin(); it != m_counts.cend(); ++it)
        counts.insert(it.key(), it.value()->text().toLongLong());
    return counts;
}

Paise DrawerCount::coins() const
{
    return m_coins->text().toLongLong() * Money::kPaisePerRupee;
}

Paise DrawerCount::total() const
{
    return Shift::countedTotal(counts(), coins());
}

bool DrawerCount::isTyped() const
{
    for (const DigitsLineEdit *edit : m_counts) {
        if (!edit->text().isEmpty())
            return true;
    }
    return !m_coins->text().isEmpty();
}

void DrawerCount::updateValues()
{
    for (auto it = m_counts.cbegin(); it != m_counts.cend(); ++it) {
        const QString text = it.value()->text();
        m_values.value(it.key())->setText(
            text.isEmpty()
                ? QString()
                : QStringLiteral("= ") + Money::formatIndian(text.toLongLong() * it.key() * Money::kPaisePerRupee));
    }
}
