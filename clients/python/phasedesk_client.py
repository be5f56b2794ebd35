"""Client for the PhaseDesk local HTTP API (/api/v2). Standard library only (urllib, json); Python 3.9+.

Every response type is a TypedDict named in SCHEMAS after the OpenAPI component schema it mirrors; every method is
named in ENDPOINTS after the operation it calls, and its keyword arguments are that operation's query parameters
(or the fields of its JSON body). test/clients/python/check_client.py compares all of this with the document served
at GET /api/v2/openapi.json. Names in EXTENSIONS are PhaseDesk additions to the specification that a spec-only
server omits.

    from phasedesk_client import PhaseDeskClient
    pd = PhaseDeskClient("tk_...")                      # base URL http://127.0.0.1:7431/api/v2 by default
    task = pd.create_task("Cu-Ni at 1500 K", {...})
    done = pd.wait_for_task(task["id"])
"""

import io
import json
import re
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from typing import Any, Callable, Dict, List, Literal, Optional, Set, Tuple, TypedDict, Union

__all__ = [
    "PhaseDeskClient", "PhaseDeskError", "ENDPOINTS", "SCHEMAS", "EXTENSIONS", "TERMINAL_STATUSES", "file_name",
]

DEFAULT_BASE_URL = "http://127.0.0.1:7431/api/v2"
TERMINAL_STATUSES = ("completed", "failed", "aborted")

# --------------------------------------------------------------------------------------------------------------
# Resources (required keys in a base class, optional keys in the total=False subclass: Python 3.9 has no
# NotRequired)
# --------------------------------------------------------------------------------------------------------------


class _ErrorBody(TypedDict):
    error: str


class ErrorBody(_ErrorBody, total=False):
    details: str
    current_pending_tasks: int
    max_pending_tasks: int


class _KeyOwner(TypedDict):
    id: str  # usable as user_id in user_database_status
    username: str
    email: Optional[str]
    subscription_level: str


class KeyOwner(_KeyOwner, total=False):
    subscription_expires_at: Optional[str]


class _KeyInfo(TypedDict):
    id: int
    api_key: str
    key_name: str
    is_active: bool
    created_at: str
    user: KeyOwner


class KeyInfo(_KeyInfo, total=False):
    last_used_at: Optional[str]
    expires_at: Optional[str]


class _Database(TypedDict):
    id: str
    code: str  # the value for task_config["tdb_code"]
    name: str
    description: str
    type: str
    version: str
    level: str
    element_list: List[str]
    phase_list: List[str]
    support_task_list: List[str]
    price: float
    user_status: str
    created_at: str
    updated_at: str
    # extensions: where the file comes from, its licence and attribution, its recommended phase selection
    # ({"inhibit_phases": [...], "for_systems": [...], "groups": {...}, "note": ...}) or None
    source: Optional[str]
    license: Optional[str]
    attribution: Optional[str]
    phase_selection: Optional[Dict[str, Any]]


class Database(_Database, total=False):
    sp_id: Optional[str]


class DatabaseList(TypedDict):
    items: List[Database]
    total: int
    page: int
    size: int


class UserDatabaseStatus(TypedDict):
    status: str  # trail, active, inactive, expired, pending (not a closed set)


class _PhasesResponse(TypedDict):
    phase_list: List[str]
    phase_groups: Dict[str, List[str]]  # extension: members of every group among phase_list (key without @)
    recommended_inhibit_phases: List[str]  # extension: what a task without inhibit_phases suppresses here
    temperature_range: Optional[Dict[str, Any]]  # extension: {start, end, melting_points} K, a new diagram's range


class PhasesResponse(_PhasesResponse, total=False):
    # extension: {element, mole_fraction: [from, to], mass_fraction: [from, to]}, a binary diagram's range; None: all
    composition_range: Optional[Dict[str, Any]]


class PhaseNameRow(TypedDict):
    key: str  # PHASE, or PHASE:STRUCTURE for a state of an ordered phase
    phase: str
    structure: Optional[str]
    default_name: str
    name: str  # the stored name, else the default


class PhaseNames(TypedDict):
    # extension: GET/PUT /database/{db_id}/phase-names, the display names figures give the database's phases
    db_id: str
    code: str
    family: Literal["steel", "aluminium", "general"]
    names: Dict[str, str]  # the names stored for this database
    phases: List[PhaseNameRow]


class PhaseNamesRequest(TypedDict):
    names: Dict[str, str]  # PHASE or PHASE:STRUCTURE -> display name (1 to 40 characters); {} = the defaults


class _Task(TypedDict):
    id: int
    title: str
    description: str  # the stored task_config as JSON text
    status: str  # created, pending, queued, running, uploading, completed, failed, aborted
    task_type: str
    user_id: str
    created_at: str
    updated_at: str


class Task(_Task, total=False):
    result: Optional[str]
    logs: Optional[str]
    tdb_code: Optional[str]
    progress: float  # extension: fraction done, 0..1
    stage: Optional[str]  # extension: what runs now ("mapping two-phase regions")
    duration_ms: Optional[int]  # extension: the calculation's run time in ms; None when no calculation ran


class TaskList(TypedDict):
    data: List[Task]
    total: int
    total_pages: int
    page: int
    items_per_page: int


class TaskCreated(TypedDict):
    id: int
    status: str  # pending, or completed on a cache hit
    task_type: str
    tdb_code: Optional[str]


class FileList(TypedDict):
    task_id: str  # the task's UUID
    files: List[str]  # pre-signed download URLs (no key needed; they expire)
    total_count: int


# --------------------------------------------------------------------------------------------------------------
# Task configurations (units: K, Pa, mole fractions)
# --------------------------------------------------------------------------------------------------------------

Compositions = Dict[str, float]


class _PointCondition(TypedDict):
    components: List[str]
    temperature: float
    pressure: float
    compositions: Compositions


class PointCondition(_PointCondition, total=False):
    activated_phases: List[str]
    inhibit_phases: List[str]  # names, patterns (* ?) and @groups; absent: the database's recommended selection
    thermo_outputs: List[str]
    outputs_list_template: List[str]
    composition_unit: Literal["mole_fraction", "mass_fraction"]  # default mole_fraction
    reference_states: Dict[str, str]  # {EL: PHASE or "SER"} for acr/mur/GM_formation
    chemical_potentials: Dict[str, float]  # {EL: J/mol} in place of EL's mole fraction (open system)
    activities: Dict[str, float]  # {EL: activity against reference_states[EL]} in place of its mole fraction
    fixed_phases: Dict[str, float]  # {PHASE: amount 0..1}: T left free, `temperature` where the search starts


class _ScanCondition(TypedDict):
    components: List[str]
    compositions_start: Compositions
    compositions_end: Compositions
    temperature_start: float
    temperature_end: float
    pressure: float


class _LineCondition(_ScanCondition):
    points: int


class LineCondition(_LineCondition, total=False):
    activated_phases: List[str]
    inhibit_phases: List[str]  # names, patterns (* ?) and @groups; absent: the database's recommended selection
    thermo_outputs: List[str]
    outputs_list_template: List[str]
    composition_unit: Literal["mole_fraction", "mass_fraction"]  # default mole_fraction
    reference_states: Dict[str, str]  # {EL: PHASE or "SER"} for acr/mur/GM_formation
    chemical_potentials: Dict[str, float]  # {EL: J/mol} held along the line (the compositions leave EL out)
    activities: Dict[str, float]  # {EL: activity against reference_states[EL]} held along the line
    fixed_phases: Dict[str, float]  # {PHASE: amount 0..1}: T free at each composition; temperature_start = _end


class BinaryEquilibriumCondition(_ScanCondition, total=False):
    activated_phases: List[str]
    inhibit_phases: List[str]  # names, patterns (* ?) and @groups; absent: the database's recommended selection
    composition_unit: Literal["mole_fraction", "mass_fraction"]  # default mole_fraction


class PropertiesCondition(_LineCondition, total=False):
    activated_phases: List[str]
    inhibit_phases: List[str]  # names, patterns (* ?) and @groups; absent: the database's recommended selection
    thermo_outputs: List[str]
    outputs_list_template: List[str]
    composition_unit: Literal["mole_fraction", "mass_fraction"]  # default mole_fraction
    reference_states: Dict[str, str]  # {EL: PHASE or "SER"} for acr/mur/GM_formation


class _ScheilCondition(TypedDict):
    components: List[str]
    compositions: Compositions
    start_temperature: float
    temperature_step: float
    pressure: float


class ScheilCondition(_ScheilCondition, total=False):
    activated_phases: List[str]
    inhibit_phases: List[str]
    composition_unit: Literal["mole_fraction", "mass_fraction"]


class _GibbsEnergyCurvesCondition(TypedDict):
    components: List[str]
    temperature: float
    pressure: float
    compositions_start: Compositions
    compositions_end: Compositions


class GibbsEnergyCurvesCondition(_GibbsEnergyCurvesCondition, total=False):
    points: int  # default 101
    activated_phases: List[str]
    inhibit_phases: List[str]  # names, patterns (* ?) and @groups; absent: the database's recommended selection
    composition_unit: Literal["mole_fraction", "mass_fraction"]  # default mole_fraction
    reference_states: Dict[str, str]  # {EL: PHASE or "SER"} for acr/mur/GM_formation


class SpinodalCoherent(TypedDict):
    c11: float  # Pa
    c12: float  # Pa
    lattice_mismatch: float  # (1/a) da/dx of the axis element
    molar_volume: float  # m^3/mol


class _SpinodalCondition(TypedDict):
    components: List[str]
    phase: str
    temperature_start: float
    temperature_end: float
    pressure: float


class SpinodalCondition(_SpinodalCondition, total=False):
    x_component: str  # default: the second component
    temperature_points: int  # default 61
    composition_points: int  # default 201
    activated_phases: List[str]
    inhibit_phases: List[str]
    coherent: SpinodalCoherent  # the coherent spinodal (Cahn 1961)


class _PotentialAxis(TypedDict):
    quantity: Literal["temperature", "log10_activity", "chemical_potential"]  # temperature: K, x axis only
    start: float
    end: float


class PotentialAxis(_PotentialAxis, total=False):
    element: str  # the element held at the potential (potential axes)
    reference_state: str  # the activity's reference: a phase (GAS for oxygen) or SER


class _PotentialYAxis(TypedDict):
    quantity: Literal["log10_activity", "chemical_potential"]
    start: float
    end: float


class PotentialYAxis(_PotentialYAxis, total=False):
    element: str
    reference_state: str


class _PotentialDiagramCondition(TypedDict):
    components: List[str]
    pressure: float
    x_axis: PotentialAxis
    y_axis: PotentialYAxis


class PotentialDiagramCondition(_PotentialDiagramCondition, total=False):
    temperature: float  # K: required when x_axis is a potential
    compositions: Dict[str, float]  # mole fractions of the elements no axis holds
    grid_points: int  # nodes per axis; default 61
    activated_phases: List[str]
    inhibit_phases: List[str]


class _LiquidusProjectionCondition(TypedDict):
    components: List[str]  # the triangle's corners first, then any components held at fixed_compositions
    pressure: float


class LiquidusProjectionCondition(_LiquidusProjectionCondition, total=False):
    fixed_compositions: Dict[str, float]  # mole fractions of the components after the first three
    grid_divisions: int  # divisions of each side of the triangle's grid; default 20
    isotherm_step: float  # K between liquidus isotherms; default 50
    activated_phases: List[str]
    inhibit_phases: List[str]


class SolutionDiffusivity(TypedDict):
    D0: float  # m^2/s
    Q: float  # J/mol


class _SolutionDissolution(TypedDict):
    phase: str
    radius: float  # m


class SolutionDissolution(_SolutionDissolution, total=False):
    temperature: float  # default: the recommended temperature
    diffusivity: SolutionDiffusivity  # default: from the database's mobility data


class _SolutionCondition(TypedDict):
    components: List[str]
    compositions: Compositions
    pressure: float
    temperature_start: float


class SolutionCondition(_SolutionCondition, total=False):
    temperature_end: float  # default: 20 K above the liquidus
    points: int  # default 121
    matrix_phase: str
    precipitates: List[str]
    safety_margin: float  # K, default 10
    dissolution: SolutionDissolution
    activated_phases: List[str]
    inhibit_phases: List[str]
    composition_unit: Literal["mole_fraction", "mass_fraction"]


class SoluteTrapping(TypedDict, total=False):
    interface_velocity: float  # m/s: the speed of the solidification front; or give thermal_gradient
    thermal_gradient: float  # K/m: V = cooling_rate / thermal_gradient
    diffusive_speed: float  # m/s: Aziz's V_D; default 2


class SolidDiffusivity(TypedDict):
    D0: float  # m^2/s
    Q: float  # J/mol


class _SolidificationCondition(TypedDict):
    components: List[str]
    compositions: Compositions
    pressure: float
    start_temperature: float
    temperature_step: float
    cooling_rate: float  # K/s


class SolidificationCondition(_SolidificationCondition, total=False):
    secondary_arm_spacing: float  # m; default derived from the cooling rate
    fast_diffusers: List[str]  # default: C, N, H, B, O among the components
    solid_diffusivities: Dict[str, SolidDiffusivity]  # default: the database's mobility data
    solute_trapping: SoluteTrapping  # extension: Aziz's solute trapping in the path with back diffusion
    primary_phase: str
    activated_phases: List[str]
    inhibit_phases: List[str]
    composition_unit: Literal["mole_fraction", "mass_fraction"]


class _AgingPrecipitate(TypedDict):
    phase: str
    interfacial_energy: float  # J/m^2, > 0 and at most 5


class _AgingShape(TypedDict):
    kind: Literal["sphere", "needle", "plate"]


class AgingShape(_AgingShape, total=False):
    aspect_ratio: float  # long axis over short one, 1 to 1000 (required for a needle or plate)


class _AgingStrength(TypedDict):
    shear_modulus: float  # Pa (aluminium 26.9e9)
    burgers_vector: float  # m (aluminium 2.86e-10)
    transition_radius: float  # m: shearing below, Orowan bypass above (Al alloys 2e-9 to 5e-9)


class AgingStrength(_AgingStrength, total=False):
    transition_radii: Dict[str, float]  # m, per precipitate phase
    taylor_factor: float  # default 3.06
    line_tension_factor: float  # default 0.5
    combination: Literal["quadrature", "linear"]  # the phases together (default quadrature)


class AgingPrecipitate(_AgingPrecipitate, total=False):
    molar_volume: float  # m^3/mol of atoms; default from lattice_parameter, else the matrix's
    lattice_parameter: float  # m, of a cubic cell
    atoms_per_cell: int  # default 4
    nucleation_site: Literal["bulk", "dislocations", "grain_boundaries"]  # default bulk
    site_density: float  # sites per m^3, instead of the estimate from the site type
    shape: AgingShape  # default a sphere; the result's radii are equivalent-sphere radii


class AgingSchedulePoint(TypedDict):
    time: float  # s, from 0, increasing
    temperature: float  # K


class AgingDiffusivity(TypedDict):
    D0: float  # m^2/s
    Q: float  # J/mol


class _AgingCondition(TypedDict):
    components: List[str]
    compositions: Compositions
    pressure: float
    matrix_phase: str
    precipitates: List[AgingPrecipitate]


class AgingCondition(_AgingCondition, total=False):
    matrix_molar_volume: float  # m^3/mol of atoms; this or matrix_lattice_parameter
    matrix_lattice_parameter: float  # m, of a cubic cell
    matrix_atoms_per_cell: int  # default 4
    temperature: float  # K: an isothermal hold, with end_time; or give schedule
    end_time: float  # s; default with a schedule: its last time
    schedule: List[AgingSchedulePoint]  # ramps and holds from time 0, instead of temperature
    dislocation_density: float  # m^-2, default 1e12
    grain_size: float  # m, default 50e-6
    diffusivities: Dict[str, AgingDiffusivity]  # default: the database's mobility data
    output_times: List[float]  # s: times of the size distributions (default: the end)
    points: int  # output times, log-spaced; default 100
    strength: AgingStrength  # the yield-strength increment against time
    activated_phases: List[str]
    inhibit_phases: List[str]
    composition_unit: Literal["mole_fraction", "mass_fraction"]


class _BatchRow(TypedDict):
    compositions: Compositions
    temperature: float


class BatchRow(_BatchRow, total=False):
    pressure: float  # default condition.pressure
    label: str


class _BatchProduct(TypedDict):
    compositions: List[Compositions]
    temperatures: List[float]


class BatchProduct(_BatchProduct, total=False):
    labels: List[str]  # one per composition


class _BatchTable(TypedDict):
    csv: str  # a header line with one column per element, optional T, pressure and label columns


class BatchTable(_BatchTable, total=False):
    unit: Literal["mole_fraction", "mass_fraction", "mole_percent", "mass_percent"]  # default mole_fraction
    temperatures: List[float]  # every record at each of these temperatures (when the table has no T column)


class _EquilibriumBatchCondition(TypedDict):
    components: List[str]
    pressure: float  # Pa, of the rows that give none


class EquilibriumBatchCondition(_EquilibriumBatchCondition, total=False):
    rows: List[BatchRow]  # exactly one of rows, product and table
    product: BatchProduct
    table: BatchTable
    activated_phases: List[str]
    inhibit_phases: List[str]
    thermo_outputs: List[str]
    outputs_list_template: List[str]
    composition_unit: Literal["mole_fraction", "mass_fraction"]
    reference_states: Dict[str, str]
    chemical_potentials: Dict[str, float]  # {EL: J/mol} held in every row (the rows leave EL out)
    activities: Dict[str, float]  # {EL: activity against reference_states[EL]} held in every row
    fixed_phases: Dict[str, float]  # {PHASE: amount 0..1}: each row's T left free, the row's T where the search starts


class CptMapOptions(TypedDict, total=False):
    GLOBAL_MIN_PDENS: float


class _CptCondition(TypedDict):
    components: List[str]
    x_component: str
    composition_start: float
    composition_end: float
    composition_step: float
    temperature_start: float
    temperature_end: float
    temperature_step: float
    pressure_start: float
    pressure_end: float
    pressure_points: int
    pressure_scale: Literal["linear", "log"]


class CptCondition(_CptCondition, total=False):
    activated_phases: List[str]
    inhibit_phases: List[str]  # names, patterns (* ?) and @groups; absent: the database's recommended selection
    composition_unit: Literal["mole_fraction", "mass_fraction"]  # grid equally spaced in it; default mole_fraction
    include_tielines: bool
    tieline_stride: float
    map_options: CptMapOptions


class SectionCoherent(TypedDict):
    c11: float  # Pa
    c12: float  # Pa
    lattice_mismatch: Dict[str, float]  # {EL: (1/a) da/dx_EL}; an element not named has 0
    molar_volume: float  # m^3/mol


class _TernarySectionCondition(TypedDict):
    components: List[str]  # exactly 3 elements: bottom left, bottom right and top corner of the Gibbs triangle
    temperature: float
    pressure: float


class TernarySectionCondition(_TernarySectionCondition, total=False):
    activated_phases: List[str]
    inhibit_phases: List[str]  # names, patterns (* ?) and @groups; absent: the database's recommended selection
    composition_window: List[Dict[str, Any]]  # [{"component": ..., "min": ..., "max": ...}] mole fractions
    composition_unit: Literal["mole_fraction", "mass_fraction"]
    map_options: Dict[str, Any]  # GLOBAL_MIN_PDENS, grid_divisions


class _ConfigBase(TypedDict):
    task_type: str
    tdb_code: str


class _PointConfig(_ConfigBase):
    condition: PointCondition


class PointCalculationConfig(_PointConfig, total=False):
    task_path: str
    tdb_file: str  # legacy: the code is derived from the file name; the path itself is never used
    mobility_tdb_code: str  # a database of mobility data read beside tdb_code (MOB, DT, DC, DI outputs)
    mobility_tdb_file: str  # set by the server from mobility_tdb_code; a client's path is never used
    preview_temperature_unit: Literal["kelvin", "celsius"]  # unit of the previews' temperature axes; default kelvin


class _LineConfig(_ConfigBase):
    condition: LineCondition


class LineCalculationConfig(_LineConfig, total=False):
    task_path: str
    tdb_file: str
    mobility_tdb_code: str  # a database of mobility data read beside tdb_code (MOB, DT, DC, DI outputs)
    mobility_tdb_file: str  # set by the server from mobility_tdb_code; a client's path is never used
    preview_temperature_unit: Literal["kelvin", "celsius"]  # unit of the previews' temperature axes; default kelvin


class _BinaryConfig(_ConfigBase):
    condition: BinaryEquilibriumCondition


class BinaryEquilibriumConfig(_BinaryConfig, total=False):
    task_path: str
    tdb_file: str
    mobility_tdb_code: str  # a database of mobility data read beside tdb_code (MOB, DT, DC, DI outputs)
    mobility_tdb_file: str  # set by the server from mobility_tdb_code; a client's path is never used
    preview_temperature_unit: Literal["kelvin", "celsius"]  # unit of the previews' temperature axes; default kelvin
    activated_elements: List[str]  # must equal condition["components"]
    order_disorder: Dict[str, Any]
    spinodal: bool  # the chemical spinodal inside every miscibility gap, drawn dashed


class _PropertiesConfig(_ConfigBase):
    condition: PropertiesCondition


class PropertiesConfig(_PropertiesConfig, total=False):
    task_path: str
    tdb_file: str
    mobility_tdb_code: str  # a database of mobility data read beside tdb_code (MOB, DT, DC, DI outputs)
    mobility_tdb_file: str  # set by the server from mobility_tdb_code; a client's path is never used
    preview_temperature_unit: Literal["kelvin", "celsius"]  # unit of the previews' temperature axes; default kelvin


class _ScheilConfig(_ConfigBase):
    condition: ScheilCondition


class ScheilConfig(_ScheilConfig, total=False):
    task_path: str
    tdb_file: str
    mobility_tdb_code: str  # a database of mobility data read beside tdb_code (MOB, DT, DC, DI outputs)
    mobility_tdb_file: str  # set by the server from mobility_tdb_code; a client's path is never used
    preview_temperature_unit: Literal["kelvin", "celsius"]  # unit of the previews' temperature axes; default kelvin


class _CptConfig(_ConfigBase):
    condition: CptCondition


class CptDiagramConfig(_CptConfig, total=False):
    task_path: str
    tdb_file: str
    mobility_tdb_code: str  # a database of mobility data read beside tdb_code (MOB, DT, DC, DI outputs)
    mobility_tdb_file: str  # set by the server from mobility_tdb_code; a client's path is never used
    preview_temperature_unit: Literal["kelvin", "celsius"]  # unit of the previews' temperature axes; default kelvin
    ui_metadata: Dict[str, Any]


class _IsoplethCondition(TypedDict):
    components: List[str]
    temperature_start: float
    temperature_end: float
    pressure: float


class IsoplethEndMembers(TypedDict):
    start: Union[str, Dict[str, float]]  # a formula ("Fe3C", "Al2O3") or an alloy's fractions
    end: Union[str, Dict[str, float]]


class IsoplethCondition(_IsoplethCondition, total=False):
    # fractions at both ends; every fraction varies linearly between them (required unless end_members is given)
    composition_start: Dict[str, float]
    composition_end: Dict[str, float]
    end_members: IsoplethEndMembers  # a pseudo-binary section between two compounds or alloys
    end_member_axis: Literal["mole_fraction", "mass_fraction"]  # its x axis; default mole fraction (formula units)
    activated_phases: List[str]
    inhibit_phases: List[str]  # names, patterns (* ?) and @groups; absent: the database's recommended selection
    composition_unit: Literal["mole_fraction", "mass_fraction"]
    resolution: int  # coarse-grid nodes per axis (5..101)


class _IsoplethConfig(_ConfigBase):
    condition: IsoplethCondition


class IsoplethConfig(_IsoplethConfig, total=False):
    task_path: str
    tdb_file: str
    mobility_tdb_code: str  # a database of mobility data read beside tdb_code (MOB, DT, DC, DI outputs)
    mobility_tdb_file: str  # set by the server from mobility_tdb_code; a client's path is never used
    preview_temperature_unit: Literal["kelvin", "celsius"]  # unit of the previews' temperature axes; default kelvin


class _TernarySectionConfig(_ConfigBase):
    condition: TernarySectionCondition


class TernarySectionConfig(_TernarySectionConfig, total=False):
    task_path: str
    tdb_file: str
    mobility_tdb_code: str  # a database of mobility data read beside tdb_code (MOB, DT, DC, DI outputs)
    mobility_tdb_file: str  # set by the server from mobility_tdb_code; a client's path is never used
    preview_temperature_unit: Literal["kelvin", "celsius"]  # unit of the previews' temperature axes; default kelvin
    spinodal: bool  # the spinodal line inside every miscibility gap, drawn dashed
    coherent: SectionCoherent  # with spinodal: the coherent spinodal too (Cahn 1961)


class _GibbsEnergyCurvesConfig(_ConfigBase):
    condition: GibbsEnergyCurvesCondition


class GibbsEnergyCurvesConfig(_GibbsEnergyCurvesConfig, total=False):
    task_path: str
    tdb_file: str
    mobility_tdb_code: str  # a database of mobility data read beside tdb_code (MOB, DT, DC, DI outputs)
    mobility_tdb_file: str  # set by the server from mobility_tdb_code; a client's path is never used
    preview_temperature_unit: Literal["kelvin", "celsius"]  # unit of the previews' temperature axes; default kelvin


class _EquilibriumBatchConfig(_ConfigBase):
    condition: EquilibriumBatchCondition


class EquilibriumBatchConfig(_EquilibriumBatchConfig, total=False):
    task_path: str
    tdb_file: str
    mobility_tdb_code: str  # a database of mobility data read beside tdb_code (MOB, DT, DC, DI outputs)
    mobility_tdb_file: str  # set by the server from mobility_tdb_code; a client's path is never used
    preview_temperature_unit: Literal["kelvin", "celsius"]  # unit of the previews' temperature axes; default kelvin


class _SpinodalConfig(_ConfigBase):
    condition: SpinodalCondition


class SpinodalConfig(_SpinodalConfig, total=False):
    task_path: str
    tdb_file: str
    preview_temperature_unit: Literal["kelvin", "celsius"]  # unit of the previews' temperature axes; default kelvin
    mobility_tdb_code: str  # a database of mobility data read beside tdb_code (MOB, DT, DC, DI outputs)
    mobility_tdb_file: str  # set by the server from mobility_tdb_code; a client's path is never used


class _PotentialDiagramConfig(_ConfigBase):
    condition: PotentialDiagramCondition


class PotentialDiagramConfig(_PotentialDiagramConfig, total=False):
    task_path: str
    tdb_file: str
    preview_temperature_unit: Literal["kelvin", "celsius"]  # unit of the previews' temperature axes; default kelvin
    mobility_tdb_code: str  # a database of mobility data read beside tdb_code (MOB, DT, DC, DI outputs)
    mobility_tdb_file: str  # set by the server from mobility_tdb_code; a client's path is never used


class _LiquidusProjectionConfig(_ConfigBase):
    condition: LiquidusProjectionCondition


class LiquidusProjectionConfig(_LiquidusProjectionConfig, total=False):
    task_path: str
    tdb_file: str
    preview_temperature_unit: Literal["kelvin", "celsius"]  # unit of the previews' temperature axes; default kelvin
    mobility_tdb_code: str  # a database of mobility data read beside tdb_code (MOB, DT, DC, DI outputs)
    mobility_tdb_file: str  # set by the server from mobility_tdb_code; a client's path is never used


class _SolutionConfig(_ConfigBase):
    condition: SolutionCondition


class SolutionConfig(_SolutionConfig, total=False):
    task_path: str
    tdb_file: str
    preview_temperature_unit: Literal["kelvin", "celsius"]  # unit of the previews' temperature axes; default kelvin
    mobility_tdb_code: str  # a database of mobility data read beside tdb_code (MOB, DT, DC, DI outputs)
    mobility_tdb_file: str  # set by the server from mobility_tdb_code; a client's path is never used


class _SolidificationConfig(_ConfigBase):
    condition: SolidificationCondition


class SolidificationConfig(_SolidificationConfig, total=False):
    task_path: str
    tdb_file: str
    preview_temperature_unit: Literal["kelvin", "celsius"]  # unit of the previews' temperature axes; default kelvin
    mobility_tdb_code: str  # a database of mobility data read beside tdb_code (MOB, DT, DC, DI outputs)
    mobility_tdb_file: str  # set by the server from mobility_tdb_code; a client's path is never used


class _AgingConfig(_ConfigBase):
    condition: AgingCondition


class AgingConfig(_AgingConfig, total=False):
    task_path: str
    tdb_file: str
    preview_temperature_unit: Literal["kelvin", "celsius"]  # unit of the previews' temperature axes; default kelvin
    mobility_tdb_code: str  # a database of mobility data read beside tdb_code (MOB, DT, DC, DI outputs)
    mobility_tdb_file: str  # set by the server from mobility_tdb_code; a client's path is never used


TaskConfig = Union[
    PointCalculationConfig, LineCalculationConfig, BinaryEquilibriumConfig, PropertiesConfig, ScheilConfig,
    CptDiagramConfig, IsoplethConfig, TernarySectionConfig, GibbsEnergyCurvesConfig, EquilibriumBatchConfig,
    SpinodalConfig, SolutionConfig, SolidificationConfig, AgingConfig, PotentialDiagramConfig,
    LiquidusProjectionConfig,
]

# The OpenAPI schema (component name, or name.property for a nested object) each TypedDict mirrors.
SCHEMAS: Dict[type, str] = {
    ErrorBody: "Error",
    KeyInfo: "KeyInfo",
    KeyOwner: "KeyInfo.user",
    Database: "DbItemResponse",
    DatabaseList: "ListDbResponse",
    UserDatabaseStatus: "UserDbStatus",
    PhasesResponse: "PhasesResponse",
    PhaseNames: "PhaseNamesResponse",
    PhaseNameRow: "PhaseNamesResponse.phases",
    PhaseNamesRequest: "PhaseNamesRequest",
    Task: "TaskStatusResponse",
    TaskList: "TaskList",
    TaskCreated: "TaskCreateResponse",
    FileList: "FileListResponse",
    PointCondition: "TaskConfig_point_calculation.condition",
    LineCondition: "TaskConfig_line_calculation.condition",
    BinaryEquilibriumCondition: "TaskConfig_binary_equilibrium.condition",
    PropertiesCondition: "TaskConfig_thermodynamic_properties_next.condition",
    ScheilCondition: "TaskConfig_scheil_solidification.condition",
    CptCondition: "TaskConfig_binary_cpt_diagram.condition",
    CptMapOptions: "TaskConfig_binary_cpt_diagram.condition.map_options",
    PointCalculationConfig: "TaskConfig_point_calculation",
    LineCalculationConfig: "TaskConfig_line_calculation",
    BinaryEquilibriumConfig: "TaskConfig_binary_equilibrium",
    PropertiesConfig: "TaskConfig_thermodynamic_properties_next",
    ScheilConfig: "TaskConfig_scheil_solidification",
    CptDiagramConfig: "TaskConfig_binary_cpt_diagram",
    IsoplethCondition: "TaskConfig_isopleth.condition",
    IsoplethEndMembers: "TaskConfig_isopleth.condition.end_members",
    IsoplethConfig: "TaskConfig_isopleth",
    TernarySectionCondition: "TaskConfig_ternary_isothermal_section.condition",
    TernarySectionConfig: "TaskConfig_ternary_isothermal_section",
    GibbsEnergyCurvesCondition: "TaskConfig_gibbs_energy_curves.condition",
    GibbsEnergyCurvesConfig: "TaskConfig_gibbs_energy_curves",
    EquilibriumBatchCondition: "TaskConfig_equilibrium_batch.condition",
    BatchProduct: "TaskConfig_equilibrium_batch.condition.product",
    BatchTable: "TaskConfig_equilibrium_batch.condition.table",
    EquilibriumBatchConfig: "TaskConfig_equilibrium_batch",
    SpinodalCondition: "TaskConfig_spinodal_decomposition.condition",
    SpinodalCoherent: "TaskConfig_spinodal_decomposition.condition.coherent",
    SpinodalConfig: "TaskConfig_spinodal_decomposition",
    PotentialAxis: "TaskConfig_potential_diagram.condition.x_axis",
    PotentialYAxis: "TaskConfig_potential_diagram.condition.y_axis",
    PotentialDiagramCondition: "TaskConfig_potential_diagram.condition",
    PotentialDiagramConfig: "TaskConfig_potential_diagram",
    LiquidusProjectionCondition: "TaskConfig_liquidus_projection.condition",
    LiquidusProjectionConfig: "TaskConfig_liquidus_projection",
    SolutionCondition: "TaskConfig_solution_treatment.condition",
    SolutionDissolution: "TaskConfig_solution_treatment.condition.dissolution",
    SolutionDiffusivity: "TaskConfig_solution_treatment.condition.dissolution.diffusivity",
    SolutionConfig: "TaskConfig_solution_treatment",
    SolidificationCondition: "TaskConfig_solidification.condition",
    SoluteTrapping: "TaskConfig_solidification.condition.solute_trapping",
    SectionCoherent: "TaskConfig_ternary_isothermal_section.coherent",
    SolidificationConfig: "TaskConfig_solidification",
    AgingCondition: "TaskConfig_aging.condition",
    AgingPrecipitate: "TaskConfig_aging.condition.precipitates",
    AgingSchedulePoint: "TaskConfig_aging.condition.schedule",
    AgingConfig: "TaskConfig_aging",
}

# Client method -> (HTTP method, path of the OpenAPI document). Path parameters are the method's positional
# arguments under the same names; its keyword arguments are the query parameters, or the JSON body's fields.
ENDPOINTS: Dict[str, Tuple[str, str]] = {
    "key_info": ("GET", "/key/info"),
    "list_databases": ("GET", "/database"),
    "list_user_databases": ("GET", "/database/users"),
    "list_databases_by_task": ("GET", "/database/by-task"),
    "user_database_status": ("GET", "/database/user/status"),
    "get_database": ("GET", "/database/{db_id}"),
    "query_phases": ("POST", "/database/{db_id}/phases"),
    "get_phase_names": ("GET", "/database/{db_id}/phase-names"),
    "set_phase_names": ("PUT", "/database/{db_id}/phase-names"),
    "create_task": ("POST", "/task"),
    "list_tasks": ("GET", "/task/list"),
    "get_task": ("GET", "/task/{id}"),
    "cancel_task": ("PATCH", "/task/{id}/cancel"),
    "delete_task": ("DELETE", "/task/{id}"),
    "result_files": ("GET", "/task/{id}/result"),
    "preview_files": ("GET", "/task/{id}/preview"),
    "vtk_files": ("GET", "/task/{id}/vtk"),
}

# PhaseDesk additions to the specification, by schema or operation.
EXTENSIONS: Dict[str, Set[str]] = {
    "TaskStatusResponse": {"progress", "stage", "duration_ms"},
    "GET /task/list": {"status", "task_type", "tdb_code", "search"},
}


class PhaseDeskError(Exception):
    """An HTTP answer other than 2xx: `status` is the HTTP status, `message` the service's `error` text."""

    def __init__(self, status: int, message: str, method: str, url: str, body: Optional[ErrorBody] = None):
        super().__init__(f"{status} {message}")
        self.status = status
        self.message = message
        self.method = method
        self.url = url
        self.body = body  # the JSON error body, when the answer had one

    @property
    def details(self) -> Optional[str]:
        return (self.body or {}).get("details")


class PhaseDeskTaskError(Exception):
    """A task that ended failed or aborted where its result was wanted: `task` is its record, its logs say why."""

    def __init__(self, task: Task):
        super().__init__(f"task {task['id']} {task['status']}")
        self.task = task


def _error_from(e: urllib.error.HTTPError, method: str, url: str) -> PhaseDeskError:
    raw = e.read() if e.fp is not None else b""
    text = raw.decode("utf-8", "replace")
    body = None
    try:
        parsed = json.loads(text)
        if isinstance(parsed, dict) and isinstance(parsed.get("error"), str):
            body = parsed
    except ValueError:
        pass
    message = body["error"] if body else (text.strip() or f"HTTP {e.code} {e.reason}".strip())
    return PhaseDeskError(e.code, message, method, url, body)


def file_name(url: str) -> str:
    """The file name at the end of a signed download URL (result.json, point.png, ...)."""
    path = urllib.parse.urlsplit(url).path
    return urllib.parse.unquote(path.rsplit("/", 1)[-1])


class PhaseDeskClient:
    """One API key against one PhaseDesk service. Methods raise PhaseDeskError for any non-2xx answer."""

    def __init__(self, api_key: str, base_url: str = DEFAULT_BASE_URL, timeout: float = 60.0):
        self.api_key = api_key
        self.base_url = base_url.rstrip("/")
        self.timeout = timeout  # seconds, per request

    # -- plumbing ------------------------------------------------------------------------------------------------

    def _call(self, name: str, params: Optional[Dict[str, Any]] = None, query: Optional[Dict[str, Any]] = None,
              body: Optional[Dict[str, Any]] = None) -> Any:
        method, path = ENDPOINTS[name]

        def fill(m: "re.Match[str]") -> str:
            value = (params or {}).get(m.group(1))
            if value is None:
                raise TypeError(f"{name}: path parameter {m.group(1)} is required")
            return urllib.parse.quote(str(value), safe="")

        url = self.base_url + re.sub(r"\{(\w+)\}", fill, path)
        q = {k: _query_value(v) for k, v in (query or {}).items() if v is not None}
        if q:
            url += "?" + urllib.parse.urlencode(q)
        headers = {"Authorization": f"Bearer {self.api_key}", "Accept": "application/json"}
        data = None
        if body is not None:
            data = json.dumps({k: v for k, v in body.items() if v is not None}).encode("utf-8")
            headers["Content-Type"] = "application/json"
        req = urllib.request.Request(url, data=data, headers=headers, method=method)
        try:
            with urllib.request.urlopen(req, timeout=self.timeout) as res:
                text = res.read().decode("utf-8")
        except urllib.error.HTTPError as e:
            raise _error_from(e, method, url) from None
        return json.loads(text) if text else None

    # -- key and databases ---------------------------------------------------------------------------------------

    def key_info(self) -> KeyInfo:
        """GET /key/info: the key and its owner."""
        return self._call("key_info")

    def list_databases(self, *, type: Optional[str] = None, level: Optional[str] = None, search: Optional[str] = None,
                       page: Optional[int] = None, size: Optional[int] = None) -> DatabaseList:
        """GET /database: enabled databases, paged (search: code, name or element)."""
        return self._call("list_databases", query=dict(type=type, level=level, search=search, page=page, size=size))

    def list_user_databases(self, *, type: Optional[str] = None, level: Optional[str] = None,
                            search: Optional[str] = None, page: Optional[int] = None,
                            size: Optional[int] = None) -> DatabaseList:
        """GET /database/users: databases linked to the caller, with user_status."""
        return self._call("list_user_databases", query=dict(type=type, level=level, search=search, page=page, size=size))

    def list_databases_by_task(self, *, task_type: str, page: Optional[int] = None,
                               size: Optional[int] = None) -> DatabaseList:
        """GET /database/by-task: enabled databases supporting a task type."""
        return self._call("list_databases_by_task", query=dict(task_type=task_type, page=page, size=size))

    def user_database_status(self, *, user_id: str, topdb_id: str) -> UserDatabaseStatus:
        """GET /database/user/status: user_id is the key owner's id (key_info()["user"]["id"]), topdb_id the database id."""
        return self._call("user_database_status", query=dict(user_id=user_id, topdb_id=topdb_id))

    def get_database(self, db_id: str) -> Database:
        """GET /database/{db_id}."""
        return self._call("get_database", params={"db_id": db_id})

    def query_phases(self, db_id: str, *, element_list: List[str]) -> PhasesResponse:
        """POST /database/{db_id}/phases: the phases available for the elements (usable as activated_phases)."""
        return self._call("query_phases", params={"db_id": db_id}, body={"element_list": element_list})

    def get_phase_names(self, db_id: str) -> PhaseNames:
        """GET /database/{db_id}/phase-names (extension): the display names figures give the database's phases."""
        return self._call("get_phase_names", params={"db_id": db_id})

    def set_phase_names(self, db_id: str, *, names: Dict[str, str]) -> PhaseNames:
        """PUT /database/{db_id}/phase-names (extension): replaces the stored display names ({} = the defaults)."""
        return self._call("set_phase_names", params={"db_id": db_id}, body={"names": names})

    # -- tasks ---------------------------------------------------------------------------------------------------

    def create_task(self, title: str, task_config: Optional[TaskConfig] = None, *, engine: Optional[str] = None,
                    description: Optional[str] = None, omp_threads: Optional[int] = None,
                    no_cache: Optional[bool] = None) -> TaskCreated:
        """POST /task. task_config holds task_type, tdb_code and condition (see the specification's tables)."""
        return self._call("create_task", body=dict(title=title, task_config=task_config, engine=engine,
                                                   description=description, omp_threads=omp_threads, no_cache=no_cache))

    def list_tasks(self, *, page: Optional[int] = None, items_per_page: Optional[int] = None,
                   sort_order: Optional[str] = None, status: Optional[str] = None, task_type: Optional[str] = None,
                   tdb_code: Optional[str] = None, search: Optional[str] = None) -> TaskList:
        """GET /task/list: the caller's tasks, paged, sorted by id. status, task_type (comma-separated), tdb_code
        and search (title substring or task id) are PhaseDesk filters that a spec-only server ignores."""
        return self._call("list_tasks", query=dict(page=page, items_per_page=items_per_page, sort_order=sort_order,
                                                   status=status, task_type=task_type, tdb_code=tdb_code,
                                                   search=search))

    def get_task(self, id: int) -> Task:  # noqa: A002 - the document's name
        """GET /task/{id} (integer id)."""
        return self._call("get_task", params={"id": id})

    def cancel_task(self, id: int) -> Task:  # noqa: A002
        """PATCH /task/{id}/cancel: allowed from pending, queued, running (else PhaseDeskError 409)."""
        return self._call("cancel_task", params={"id": id})

    def delete_task(self, id: Union[int, str]) -> None:  # noqa: A002
        """DELETE /task/{id} (integer id or task UUID): stops the task if needed, then deletes it."""
        self._call("delete_task", params={"id": id})

    def result_files(self, id: int) -> FileList:  # noqa: A002
        """GET /task/{id}/result: signed URLs of the result files of a completed task (409 otherwise)."""
        return self._call("result_files", params={"id": id})

    def preview_files(self, id: int) -> FileList:  # noqa: A002
        """GET /task/{id}/preview: signed URLs of the preview files (SVG, PNG)."""
        return self._call("preview_files", params={"id": id})

    def vtk_files(self, id: int) -> FileList:  # noqa: A002
        """GET /task/{id}/vtk: signed URLs of the VTK archives (binary_cpt_diagram)."""
        return self._call("vtk_files", params={"id": id})

    def wait_for_task(self, id: int, *, interval: float = 0.5, timeout: Optional[float] = None,  # noqa: A002
                      on_update: Optional[Callable[[Task], None]] = None,
                      stop: Optional[threading.Event] = None) -> Task:
        """Polls GET /task/{id} until the task is completed, failed or aborted and returns that record (a failed
        task is returned, not raised: its logs say why). Raises TimeoutError after `timeout` seconds, and
        InterruptedError as soon as `stop` (a threading.Event another thread may set) is set."""
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            if stop is not None and stop.is_set():
                raise InterruptedError(f"stopped waiting for task {id}")
            task = self.get_task(id)
            if on_update is not None:
                on_update(task)
            if task["status"] in TERMINAL_STATUSES:
                return task
            wait = interval
            if deadline is not None:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise TimeoutError(f"task {id} is still {task['status']} after {timeout} s")
                wait = min(wait, left)
            if stop is not None:
                if stop.wait(wait):
                    raise InterruptedError(f"stopped waiting for task {id}")
            else:
                time.sleep(wait)

    # -- equilibrium_batch (a PhaseDesk extension) -----------------------------------------------------------------

    def batch(self, tdb_code: str, condition: EquilibriumBatchCondition, *, title: str = "batch",
              omp_threads: Optional[int] = None, timeout: Optional[float] = None, interval: float = 0.5,
              dataframe: bool = False) -> Any:
        """Runs an equilibrium_batch task (many alloys and temperatures in one task), waits for it and returns its
        rows in input order, as in result/rows.jsonl: dicts with row, label, status ("ok", "not_converged",
        "failed"), reason, input {T, P, x} and values {column: value}. A row that did not converge comes back with
        its status and reason, never as an exception. dataframe=True returns result.csv as a pandas DataFrame (one
        column per input and output; pandas must be installed). Raises PhaseDeskError 400 naming the field for a
        configuration the service refuses, PhaseDeskTaskError when the task fails or is aborted, TimeoutError after
        `timeout` seconds (the task keeps running: cancel_task stops it)."""
        config = {"task_type": "equilibrium_batch", "tdb_code": tdb_code, "condition": condition}
        created = self.create_task(title, config, omp_threads=omp_threads)  # type: ignore[arg-type]
        task = self.wait_for_task(created["id"], interval=interval, timeout=timeout)
        if task["status"] != "completed":
            raise PhaseDeskTaskError(task)
        if dataframe:
            import pandas  # optional: only this form needs it

            return pandas.read_csv(io.StringIO(self.task_file(created["id"], "result.csv").decode("utf-8")))
        text = self.task_file(created["id"], "rows.jsonl").decode("utf-8")
        rows = [json.loads(line) for line in text.splitlines() if line.strip()]
        return sorted(rows, key=lambda r: r["row"])

    # -- files ---------------------------------------------------------------------------------------------------

    def download(self, url: str) -> bytes:
        """Downloads a signed URL from a file list. The URL is the credential: no API key is sent. An expired or
        altered URL raises PhaseDeskError 403."""
        try:
            with urllib.request.urlopen(urllib.request.Request(url, method="GET"), timeout=self.timeout) as res:
                return res.read()
        except urllib.error.HTTPError as e:
            raise _error_from(e, "GET", url) from None

    def task_file(self, id: int, name: str, *, kind: str = "result") -> bytes:  # noqa: A002
        """One named file of a task in one call: the file list of `kind` ("result", "preview" or "vtk") and the
        download of the URL whose file name is `name` ("result.csv", "point.svg"). A name the list lacks raises
        PhaseDeskError 404 naming the files there are."""
        if kind not in ("result", "preview", "vtk"):
            raise ValueError(f"kind must be result, preview or vtk, not {kind!r}")
        files: FileList = self._call(f"{kind}_files", params={"id": id})
        for url in files["files"]:
            if file_name(url) == name:
                return self.download(url)
        names = ", ".join(file_name(u) for u in files["files"]) or "none"
        raise PhaseDeskError(404, f"task {id} has no {kind} file {name} (files: {names})", "GET",
                             f"{self.base_url}/task/{id}/{kind}")

    def download_json(self, url: str) -> Any:
        """Downloads a signed URL and parses it as JSON (result.json)."""
        return json.loads(self.download(url).decode("utf-8"))

    def download_text(self, url: str) -> str:
        """Downloads a signed URL as UTF-8 text (result.csv, *.svg)."""
        return self.download(url).decode("utf-8")

    def openapi_document(self) -> Dict[str, Any]:
        """GET /openapi.json: the OpenAPI 3.1 document of this service (needs no key)."""
        url = self.base_url + "/openapi.json"
        try:
            with urllib.request.urlopen(urllib.request.Request(url, method="GET"), timeout=self.timeout) as res:
                return json.loads(res.read().decode("utf-8"))
        except urllib.error.HTTPError as e:
            raise _error_from(e, "GET", url) from None


def _query_value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    return str(v)
