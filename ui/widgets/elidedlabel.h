#pragma once

#include <QLabel>

/// A one-line label that gives way: it asks for its whole text's width but takes less when its row (a status bar at
/// 1366 px) has no more — showing then its shorter wording, if it has one that fits, else its text ending with "…" —
/// with the whole text in the tooltip. setFullText() sets the texts.
class ElidedLabel final : public QLabel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ElidedLabel)

public:
    explicit ElidedLabel(QWidget *parent = nullptr);

    /// Shows `text` ("" clears it) with `text` as the tooltip; `shorter` is the same in fewer words, shown when `text`
    /// does not fit.
    void setFullText(const QString &text, const QString &shorter = {});
    const QString &fullText() const { return m_fullText; }

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    void resizeEvent(QResizeEvent *event) override;
    void changeEvent(QEvent *event) override;

private:
    void elide();

    QString m_fullText;
    QString m_shorter;
};
