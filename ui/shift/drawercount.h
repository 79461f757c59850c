#pragma once

#include "money.h"

#include <QList>
#include <QMap>
#include <QWidget>

class DigitsLineEdit;
class QLabel;

/// The count of a cash drawer (issue 28): the notes of each denomination (Shift::kDenominations, ₹500 … ₹10) as a
/// number of notes, two denominations a row, each with its value beside it ("= ₹2,000.00"), and the coins as one
/// amount in whole rupees. Empty fields count 0. changed() follows every keystroke.
class DrawerCount final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(DrawerCount)

public:
    explicit DrawerCount(QWidget *parent = nullptr);

    /// The fields in counting order (₹500 first, the coins last), for Tab and Enter.
    QList<QWidget *> inputs() const;
    /// The count field of `denomination` (rupees).
    DigitsLineEdit *countEdit(int denomination) const { return m_counts.value(denomination); }
    DigitsLineEdit *coinsEdit() const { return m_coins; }
    /// Notes by denomination (rupees → count).
    QMap<int, qint64> counts() const;
    /// The coins in paise.
    Paise coins() const;
    /// The notes and coins together, in paise.
    Paise total() const;
    /// True once any field has been typed in (a 0 counts).
    bool isTyped() const;

signals:
    void changed();
    /// A field refused a key (`reason` for people).
    void refused(const QString &reason);

private:
    void updateValues();

    QMap<int, DigitsLineEdit *> m_counts;
    QMap<int, QLabel *> m_values;
    DigitsLineEdit *m_coins;
};
