#pragma once

#include "entities/shop.h"
#include "shopformdialog.h"

class ApiClient;
class DigitsLineEdit;

/// Back office → Shops → Credit limit… (issue 30): how far below zero the shop's live wallet may go (whole rupees,
/// ₹0 .. ₹10,00,000; 0 = no credit). PUT /api/v1/shops/{id}/credit-limit; beyond it the shop's sales are refused
/// 402 insufficient balance. The field is "creditLimit".
class CreditLimitDialog final : public ShopFormDialog
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(CreditLimitDialog)

public:
    /// The largest limit the server takes, paise.
    static constexpr Paise kMaxLimit = 1'000'000LL * Money::kPaisePerRupee;

    CreditLimitDialog(ApiClient &api, const Shop &shop, QWidget *parent = nullptr);

signals:
    /// The server set it: the shop as it answered.
    void limitSet(const Shop &shop);

protected:
    void submit() override;

private:
    ApiClient &m_api;
    qint64 m_shopId;
    DigitsLineEdit *m_limit;
};
