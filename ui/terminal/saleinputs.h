#pragma once

#include "operatorcatalog.h"
#include "saledraft.h"
#include "widgets/digitslineedit.h"

#include <QObject>

class QComboBox;
class QLabel;
class QLineEdit;
class QWidget;
class SaleForm;

/// The inputs every sale screen shares, added to its SaleForm and wired together: the
/// operator picker (mobile and DTH; a voucher's issuer is fixed), the amount checked live
/// against the operator's limits with "₹10 – ₹2500 for Airtel" under it, and the optional
/// reference. The screen adds its own fields in between and builds its draft from draft().
class SaleInputs final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(SaleInputs)

public:
    /// Inputs for `kind` on `form` (which owns this object).
    SaleInputs(const OperatorCatalog &catalog, ProductKind kind, SaleForm &form);

    /// A line edit that accepts at most `maxDigits` ASCII digits and says why it refuses the rest.
    static DigitsLineEdit *digitsEdit(const QString &objectName, int maxDigits, const QString &placeholder,
                                      QWidget *parent);

    /// Adds the operator picker (objectName "operator", spec field operator_code) and a hint
    /// line under it (operatorHint()); nothing is chosen at first.
    void addOperatorField(const QString &placeholder);
    /// Adds the amount (objectName "amount", whole rupees: a dot or comma is refused with a reason)
    /// with its limits hint.
    void addAmountField();
    /// Adds the optional reference (objectName "referenceId", spec field reference_id).
    void addReferenceField();

    /// The chosen operator (the voucher issuer for vouchers); nullptr if none is chosen.
    const OperatorInfo *currentOperator() const;
    /// Chooses the operator with `code`; false if the picker does not have it.
    bool selectOperator(const QString &code);
    QComboBox *operatorCombo() const { return m_operator; }
    QLabel *operatorHint() const { return m_operatorHint; }
    DigitsLineEdit *amountEdit() const { return m_amount; }

    /// A draft for the spec endpoint `path`: amount (a JSON string of digits, as the spec's
    /// samples send it), operator_code (not for vouchers), the operator, the bill in paise and
    /// the typed reference. Only call after the form validated.
    SaleDraft draft() const;
    /// Empties the amount and reference and un-chooses the operator.
    void reset();

signals:
    void operatorChanged();

private:
    void onOperatorChanged();

    const OperatorCatalog &m_catalog;
    ProductKind m_kind;
    SaleForm &m_form;
    QComboBox *m_operator = nullptr;
    QLabel *m_operatorHint = nullptr;
    DigitsLineEdit *m_amount = nullptr;
    QLabel *m_limits = nullptr;
    QLineEdit *m_reference = nullptr;
};
