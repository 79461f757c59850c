#pragma once

#include <QDialog>

#include <memory>

class ApiError;
class FormErrors;
class QFormLayout;
class QLabel;
class QPushButton;

/// The frame the Shops page's forms share (issue 30: add a shop, top up, credit limit, margins, a new key): a summary
/// line, rows of label and input each with its error line under it (registered under the API field it sends), a red
/// line for errors that name no field, and the step's button (the default) beside Cancel. submit() runs on the button
/// or Enter; while busy() (a call on its way) the buttons are off and Esc does nothing. The server's refusals stay in
/// the dialog at their field (showRefusal()).
class ShopFormDialog : public QDialog
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ShopFormDialog)

public:
    ~ShopFormDialog() override;

    QPushButton *actionButton() const { return m_action; }
    bool isBusy() const { return m_busy; }

public slots:
    void reject() override;

protected:
    /// `objectName` names the dialog (tests find it); `summary` ("" = none) is shown in bold on top.
    ShopFormDialog(const QString &objectName, const QString &title, const QString &summary, const QString &actionText,
                   QWidget *parent);

    /// Checks the fields and sends them (setBusy(true) until the answer).
    virtual void submit() = 0;

    /// A row: `label` (with its & mnemonic, the input its buddy) and `input`, and under it the error line of `field`.
    void addRow(const QString &label, QWidget *input, const QString &field);
    /// A row of its own across the form (a hint, a table).
    void addWideRow(QWidget *widget);
    FormErrors &errors() { return *m_errors; }
    void setBusy(bool busy);
    /// Ends busy and shows `error` at its field when the form has it, else in the red line.
    void showRefusal(const ApiError &error);
    /// Focuses the input of the first local problem shown since errors().clear() (FormErrors::showAt with an input):
    /// false when there was one, true when the form can be sent.
    bool focusFirstProblem();

private:
    QFormLayout *m_form;
    QPushButton *m_action;
    QPushButton *m_cancel;
    std::unique_ptr<FormErrors> m_errors;
    bool m_busy = false;
};
