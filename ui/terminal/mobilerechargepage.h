#pragma once

#include "plantablemodel.h"
#include "terminalcontext.h"

#include <QWidget>

#include <optional>

class QComboBox;
class QLabel;
class QLineEdit;
class SaleFlow;
class SaleInputs;

/// Mobile recharge (api-v1.md endpoint 5): number with live validation, operator (remembered
/// per number from past sales at this terminal), circle (the last one remembered), amount
/// checked live against the operator's limits, optional reference; then SaleFlow's
/// confirmation, result and receipt.
class MobileRechargePage final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(MobileRechargePage)

public:
    explicit MobileRechargePage(TerminalContext &context, QWidget *parent = nullptr);

    /// "Sell this plan" from the Plans screen: starts a new sale with the operator, circle and
    /// amount (the plan's price) filled in and the plan's summary shown, then focuses the number
    /// (or the amount when a number is already typed). The plan goes on to the receipt.
    void fillFromPlan(const QString &operatorCode, const QString &circleCode, const PlanItem &plan);

    SaleFlow *flow() const { return m_flow; }

private:
    void onNumberChanged();
    void onSubmitted();
    void reset();

    TerminalContext &m_context;
    SaleFlow *m_flow;
    SaleInputs *m_inputs;
    QLineEdit *m_number;
    QComboBox *m_circle;
    QLabel *m_planHint;
    std::optional<PlanItem> m_plan; ///< the plan being sold, if the sale came from the Plans screen
};
