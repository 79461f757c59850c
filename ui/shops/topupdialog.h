#pragma once

#include "entities/shop.h"
#include "shopformdialog.h"

class ApiClient;
class DigitsLineEdit;
class QComboBox;
class QLineEdit;

/// Back office → Shops → Top up… (issue 30): credits a shop's live wallet with what it paid the distributor — the
/// amount in whole rupees, how it paid (Cash, UPI, Bank transfer) and the reference (the UTR; required for UPI and
/// bank, optional for cash), and a note. POST /api/v1/shops/{id}/topups; the ledger row names method and reference.
/// Fields: "topUpAmount", "topUpMethod", "topUpReference", "topUpNote".
class TopUpDialog final : public ShopFormDialog
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(TopUpDialog)

public:
    TopUpDialog(ApiClient &api, const Shop &shop, QWidget *parent = nullptr);

signals:
    /// The server credited it: the shop with its new balance.
    void toppedUp(const Shop &shop);

protected:
    void submit() override;

private:
    ApiClient &m_api;
    qint64 m_shopId;
    DigitsLineEdit *m_amount;
    QComboBox *m_method;
    QLineEdit *m_reference;
    QLineEdit *m_note;
};
