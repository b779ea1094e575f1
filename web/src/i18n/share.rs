//! Sharing a lecture: the QR code of the address and the embed's error page.

texts! {
    /// The QR button's and overlay's labels in one language.
    pub struct QrText {
        /// The button's title and the overlay's accessible name.
        title: "QR 코드: 학생들이 휴대폰으로 같은 화면을 엽니다"
            | "QR code: students open this view on their phones",
        /// The close button.
        close: "닫기" | "Close",
        /// Under the address.
        hint: "같은 네트워크에서 이 주소가 열려야 합니다 (127.0.0.1 은 이 컴퓨터만)."
            | "Phones must reach this address on the network (127.0.0.1 is this computer only).",
    }
}

texts! {
    /// The embed's error page in one language.
    pub struct EmbedText {
        /// The heading.
        title: "이 임베드 주소로는 무대를 열 수 없습니다" | "This embed address cannot open the stage",
        /// Before an address that works.
        usage: "주소 형식:" | "Write it as:",
    }
}
