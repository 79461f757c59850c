#pragma once

#include "terminalcontext.h"

#include <QWidget>

class QLineEdit;
class SaleFlow;
class SaleInputs;

/// App-store gift voucher (api-v1.md endpoint 6): amount (₹10 – ₹10000) and optional customer
/// e-mail; the result shows the redeem code large and grouped with a Copy button.
class VoucherPage final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(VoucherPage)

public:
    explicit VoucherPage(TerminalContext &context, QWidget *parent = nullptr);

    SaleFlow *flow() const { return m_flow; }

private:
    SaleFlow *m_flow;
    SaleInputs *m_inputs;
    QLineEdit *m_email;
};
