#pragma once

#include "widgets/formerrors.h"

#include <QWidget>

#include <functional>

class ApiError;
class QGridLayout;
class QLabel;
class QPushButton;
class QVBoxLayout;

/// The input card of a sale screen: labelled inputs, each with its error label under it
/// registered by its spec field name ("phone_number", "amount", …), live checks while typing,
/// and a Continue button. Enter anywhere in the form submits; submitted() is emitted only when
/// every check passes, so bad input never reaches the server.
class SaleForm final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(SaleForm)

public:
    /// Returns a message for people, or an empty string when the input is fine.
    using Check = std::function<QString()>;
    /// Whether the input is complete enough for the check to run while typing.
    using Ready = std::function<bool()>;

    explicit SaleForm(QWidget *parent = nullptr);

    /// Adds `input` (a QLineEdit or QComboBox) under `label`, registered as spec field `field`,
    /// with its error label below. A DigitsLineEdit's refused input shows its reason there at once. `check` runs on
    /// submit, when the input loses focus and, once `liveReady` says so (default: never), as the clerk types. Tab order
    /// follows insertion.
    void addField(const QString &label, QWidget *input, const QString &field, Check check = {}, Ready liveReady = {});
    /// Adds a grey hint line under the last field's input and returns it (its text may change later).
    QLabel *addHint(const QString &text = {});
    /// Sets a hint's text; an empty hint is hidden so it takes no room.
    static void setHint(QLabel *hint, const QString &text);
    /// Re-runs the check of `field` now if its input has something in it (or an error showing),
    /// e.g. the amount after the operator changed.
    void recheck(const QString &field);

    /// Runs every check, shows the problems and focuses the first bad input; true if all pass.
    bool validate();
    /// Shows an API error next to the field it names (or at the top) and focuses that input.
    void showError(const ApiError &error);
    /// Shows a message at the top of the form.
    void showGeneral(const QString &message);
    void clearErrors();
    /// Focuses the first input.
    void focusFirst();
    /// Enter or Continue: runs the checks and emits submitted() if they pass.
    void submit();
    /// While `text` is not empty Continue is disabled and says `text` ("Checking…"); empty restores it.
    void setBusy(const QString &text);
    /// Adds `widget` under the last field's input, above its error (like addHint()).
    void addBelow(QWidget *widget);

    /// For tests: the error label of `field` (nullptr if unknown), the top label, the input.
    QLabel *errorLabel(const QString &field) const;
    QLabel *generalLabel() const { return m_general; }
    QWidget *input(const QString &field) const;
    QPushButton *continueButton() const { return m_continue; }

signals:
    /// Enter or Continue, before the checks run: a screen may still fill inputs (a repeat offer).
    void aboutToSubmit();
    /// Every check passed: the screen builds its SaleDraft.
    void submitted();

protected:
    void keyPressEvent(QKeyEvent *event) override;

private:
    struct Entry
    {
        QString field;
        QWidget *input;
        QLabel *error;
        QVBoxLayout *cell;
        Check check;
        Ready liveReady;
    };
    const Entry *find(const QString &field) const;
    /// Runs the check of `entry`; shows or hides its message. True if the input is fine.
    bool runCheck(const Entry &entry);
    void markInvalid(QWidget *input, bool invalid);

    QList<Entry> m_entries;
    QGridLayout *m_layout;
    QLabel *m_general;
    QPushButton *m_continue;
    QString m_continueText;
    FormErrors m_errors;
};
