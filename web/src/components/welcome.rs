//! The first-visit card: what this page is, and three ways in (lesson 02, free play, the keys).
//! Shown once per browser on a bare address; any choice (or Escape) dismisses it for good.

use yew::prelude::*;

use crate::state::Lang;

/// What the visitor chose.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Welcome {
    /// Open this lesson.
    Lesson(&'static str),
    /// Stay in free play.
    FreePlay,
    /// Show the keyboard help.
    Keys,
}

/// Properties of [`WelcomeCard`].
#[derive(Properties, PartialEq)]
pub struct WelcomeCardProps {
    /// The language.
    pub lang: Lang,
    /// Called with the visitor's choice.
    pub on_choice: Callback<Welcome>,
}

/// The card's texts in one language: heading, what it is, and the three buttons.
fn texts(lang: Lang) -> [&'static str; 5] {
    match lang {
        Lang::Ko => [
            "KRaft Playground",
            "브라우저 안에서 도는 Apache Kafka KRaft 클러스터입니다. 컨트롤러 쿼럼의 Raft 선거, 메타데이터 로그의 복제와 하이 워터마크, 브로커의 하트비트와 펜스를 한 단계씩 보며 배웁니다. 모든 숫자는 시뮬레이터가 실제로 계산한 것이고, 같은 시드는 같은 실행을 줍니다.",
            "레슨 02: 리더를 죽여 보기",
            "자유 실습",
            "키보드 단축키",
        ],
        Lang::En => [
            "KRaft Playground",
            "A whole Apache Kafka KRaft cluster running in your browser. Watch the controller quorum's Raft election, the metadata log's replication and high watermark, and the brokers' heartbeats and fencing, one step at a time. Every number comes from the simulated cluster; the same seed gives the same run.",
            "Lesson 02: kill the leader",
            "Free play",
            "Keys",
        ],
    }
}

/// The card.
#[component]
pub fn WelcomeCard(props: &WelcomeCardProps) -> Html {
    let [title, what, lesson, free, keys] = texts(props.lang);
    let choose = |c: Welcome| props.on_choice.reform(move |_: MouseEvent| c);
    html! {
        <div class="overlay" id="welcome" role="dialog" aria-modal="true" aria-labelledby="welcome-title">
            <div class="panel welcome">
                <h2 id="welcome-title">{ title }</h2>
                <p class="welcome-what">{ what }</p>
                <p class="welcome-choices">
                    <button id="welcome-lesson" class="next" onclick={choose(Welcome::Lesson("02-election"))}>{ lesson }</button>
                    <button id="welcome-free" onclick={choose(Welcome::FreePlay)}>{ free }</button>
                    <button id="welcome-keys" onclick={choose(Welcome::Keys)}>{ keys }</button>
                </p>
            </div>
        </div>
    }
}
