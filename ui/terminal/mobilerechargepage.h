#pragma once

#include "terminalcontext.h"

#include <QWidget>

class QComboBox;
class QLabel;
class QLineEdit;
class SaleFlow;
class SaleInputs;

/// Mobile recharge (api-v1.md endpoint 5): number with live validation, operator (remembered
/// per number from past sales at this terminal), circle (the last one remembered), amount
/// checked live against the operator's limits, optional reference; then SaleFlow's
/// confirmation, result and receipt. The number being typed, with its operator and circle, is
/// published as TerminalContext::mobileSale() so the Plans screen opens on them.
class MobileRechargePage final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(MobileRechargePage)

public:
    explicit MobileRechargePage(TerminalContext &context, QWidget *parent = nullptr);

    /// "Sell this plan" from the Plans screen: starts a new sale with the operator, circle and
    /// amount (whole rupees) filled in and the plan's summary shown, then focuses the number
    /// (or the amount when a number is already typed).
    void fillFromPlan(const QString &operatorCode, const QString &circleCode, qint64 amountRupees,
                      const QString &planSummary);

    SaleFlow *flow() const { return m_flow; }

private:
    void onNumberChanged();
    /// Tells the terminal context which number (operator, circle) this form is selling, for Plans.
    void publishSale();
    void onSubmitted();
    void reset();

    TerminalContext &m_context;
    SaleFlow *m_flow;
    SaleInputs *m_inputs;
    QLineEdit *m_number;
    QComboBox *m_circle;
    QLabel *m_planHint;
    QString m_planSummary;
};
