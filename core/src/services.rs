//! `ModeServices`: the read-only data and models the session modes share — the ACS
//! catalogs, the blueprints, the courses, the model tutor and the exam's plan sizing. The
//! server builds one; the actors hand it to the session as a [`StepContext`] without
//! looking inside.

use std::sync::Arc;

use viva_blueprint::library::BlueprintLibrary;

use crate::exam::acs::AcsLibrary;
use crate::exam::plan::PlanDefaults;
use crate::tutor::library::TutorLibrary;
use crate::tutor::model::TutorModel;

/// What every mode may read.
pub struct ModeServices {
    /// ACS catalogs (exams).
    pub acs: Arc<AcsLibrary>,
    /// Skill and assessment blueprints (assessments, skill drills).
    pub blueprints: Arc<BlueprintLibrary>,
    /// Courses (tutoring).
    pub tutor: Arc<TutorLibrary>,
    /// The model tutor, when one is configured (`[llm]`).
    pub tutor_model: Option<Arc<dyn TutorModel>>,
    /// Plan sizing for new exams.
    pub plan_defaults: PlanDefaults,
}

impl ModeServices {
    /// The services as the pure steps read them.
    pub fn context(&self) -> StepContext<'_> {
        StepContext {
            acs: &self.acs,
            blueprints: &self.blueprints,
            tutor: &self.tutor,
            tutor_model: self.tutor_model.as_ref(),
            plan_defaults: self.plan_defaults,
        }
    }
}

/// The data the pure steps read.
#[derive(Clone, Copy)]
pub struct StepContext<'a> {
    /// ACS catalogs (exams).
    pub acs: &'a AcsLibrary,
    /// Skill and assessment blueprints (assessments, skill drills).
    pub blueprints: &'a BlueprintLibrary,
    /// Courses (tutoring).
    pub tutor: &'a TutorLibrary,
    /// The model tutor, when one is configured.
    pub tutor_model: Option<&'a Arc<dyn TutorModel>>,
    /// Plan sizing for new exams.
    pub plan_defaults: PlanDefaults,
}

impl<'a> StepContext<'a> {
    /// A context over these libraries, with no model tutor and the default plan sizing.
    pub fn offline(
        acs: &'a AcsLibrary,
        blueprints: &'a BlueprintLibrary,
        tutor: &'a TutorLibrary,
    ) -> StepContext<'a> {
        StepContext {
            acs,
            blueprints,
            tutor,
            tutor_model: None,
            plan_defaults: PlanDefaults::default(),
        }
    }
}
