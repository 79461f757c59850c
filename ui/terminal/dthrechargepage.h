#pragma once

#include "terminalcontext.h"

#include <QWidget>

class QLineEdit;
class SaleFlow;
class SaleInputs;

/// DTH recharge (api-v1.md endpoint 7): operator, subscriber number with the operator's format
/// hint and a live check (its pattern or a 10-digit registered mobile), amount within the
/// operator's limits, optional reference; then SaleFlow's confirmation, result and receipt.
class DthRechargePage final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(DthRechargePage)

public:
    explicit DthRechargePage(TerminalContext &context, QWidget *parent = nullptr);

    SaleFlow *flow() const { return m_flow; }

private:
    void onOperatorChanged();

    SaleFlow *m_flow;
    SaleInputs *m_inputs;
    QLineEdit *m_number;
};
